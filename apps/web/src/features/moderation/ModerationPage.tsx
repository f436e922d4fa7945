export default function ModerationPage() {
  return <p>ModerationPage is being built.</p>
}
