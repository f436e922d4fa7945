export default function ReceivedPostRequestsPage() {
  return <p>ReceivedPostRequestsPage is being built.</p>
}
