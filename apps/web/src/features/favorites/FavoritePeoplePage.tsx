export default function FavoritePeoplePage() {
  return <p>FavoritePeoplePage is being built.</p>
}
