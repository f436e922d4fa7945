export default function TermsPage() {
  return <p>TermsPage is being built.</p>
}
