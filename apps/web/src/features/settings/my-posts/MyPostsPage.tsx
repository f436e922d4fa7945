export default function MyPostsPage() {
  return <p>MyPostsPage is being built.</p>
}
