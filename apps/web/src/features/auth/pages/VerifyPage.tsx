export default function VerifyPage() {
  return <p>VerifyPage is being built.</p>
}
