export default function HelpPage() {
  return <p>HelpPage is being built.</p>
}
