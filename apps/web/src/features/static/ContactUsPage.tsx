export default function ContactUsPage() {
  return <p>ContactUsPage is being built.</p>
}
