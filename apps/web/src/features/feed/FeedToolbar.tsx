export default function FeedToolbar() {
  return <p>FeedToolbar is being built.</p>
}
