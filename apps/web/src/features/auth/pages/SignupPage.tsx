export default function SignupPage() {
  return <p>SignupPage is being built.</p>
}
