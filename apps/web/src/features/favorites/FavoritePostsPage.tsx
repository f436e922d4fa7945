export default function FavoritePostsPage() {
  return <p>FavoritePostsPage is being built.</p>
}
