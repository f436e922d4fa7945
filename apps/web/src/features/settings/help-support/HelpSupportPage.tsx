export default function HelpSupportPage() {
  return <p>HelpSupportPage is being built.</p>
}
