export default function HomePage() {
  return <p>HomePage is being built.</p>
}
