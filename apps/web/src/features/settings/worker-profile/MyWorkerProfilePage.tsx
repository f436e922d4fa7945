export default function MyWorkerProfilePage() {
  return <p>MyWorkerProfilePage is being built.</p>
}
