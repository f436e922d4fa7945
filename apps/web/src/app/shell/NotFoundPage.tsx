export default function NotFoundPage() {
  return <p>NotFoundPage is being built.</p>
}
