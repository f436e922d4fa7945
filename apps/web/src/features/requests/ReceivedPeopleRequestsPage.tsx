export default function ReceivedPeopleRequestsPage() {
  return <p>ReceivedPeopleRequestsPage is being built.</p>
}
