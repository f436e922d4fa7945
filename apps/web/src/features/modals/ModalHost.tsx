export default function ModalHost() {
  return <p>ModalHost is being built.</p>
}
