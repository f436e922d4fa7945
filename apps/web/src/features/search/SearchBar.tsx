export default function SearchBar() {
  return <p>SearchBar is being built.</p>
}
