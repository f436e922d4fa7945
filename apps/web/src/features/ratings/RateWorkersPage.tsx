export default function RateWorkersPage() {
  return <p>RateWorkersPage is being built.</p>
}
