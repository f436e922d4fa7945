export default function SecurityPage() {
  return <p>SecurityPage is being built.</p>
}
