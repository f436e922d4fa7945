export default function LoginPage() {
  return <p>LoginPage is being built.</p>
}
