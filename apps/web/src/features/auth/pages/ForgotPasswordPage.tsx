export default function ForgotPasswordPage() {
  return <p>ForgotPasswordPage is being built.</p>
}
