export default function SentPeopleRequestsPage() {
  return <p>SentPeopleRequestsPage is being built.</p>
}
