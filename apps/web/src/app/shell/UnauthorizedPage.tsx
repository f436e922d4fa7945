export default function UnauthorizedPage() {
  return <p>UnauthorizedPage is being built.</p>
}
