export default function StatsPage() {
  return <p>StatsPage is being built.</p>
}
