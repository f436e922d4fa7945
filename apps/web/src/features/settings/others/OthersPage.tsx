export default function OthersPage() {
  return <p>OthersPage is being built.</p>
}
