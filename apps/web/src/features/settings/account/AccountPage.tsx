export default function AccountPage() {
  return <p>AccountPage is being built.</p>
}
