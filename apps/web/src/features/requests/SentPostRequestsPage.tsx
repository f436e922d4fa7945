export default function SentPostRequestsPage() {
  return <p>SentPostRequestsPage is being built.</p>
}
