import { useState } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser } from '@/features/auth/auth-slice'
import {
  useGetFavoritePostsQuery,
  useRemoveFavoritePostMutation,
  type FavoritePostEntry,
} from '@/features/favorites/favorites-api'
import {
  IconButton,
  ResetButton,
  SortSelect,
  ViewToggle,
  sortByDate,
  type DateOrder,
  type ListView,
} from '@/features/requests/list-controls'
import { ConfirmModal } from '@/components/ui/Modal'
import { imageUrl } from '@/lib/images'
import { Messages } from '@marketplace/contracts/validation'
import '@/features/requests/requests.css'
import './favorites.css'

/** spec 2 §2.16 Favorite posts, sorted by when they were saved. */
export default function FavoritePostsPage() {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const {
    data: entries = [],
    isLoading,
    isError,
  } = useGetFavoritePostsQuery(user?._id ?? '', {
    skip: !user,
  })
  const [removeFavorite, removeState] = useRemoveFavoritePostMutation()
  const [view, setView] = useState<ListView>('grid')
  const [order, setOrder] = useState<DateOrder>('recent')
  const [removing, setRemoving] = useState<FavoritePostEntry | null>(null)

  const shown = sortByDate(entries, (entry) => entry.createdAt, order)

  const confirmRemove = async (entry: FavoritePostEntry) => {
    if (!user) return
    try {
      await removeFavorite({ userId: user._id, postId: entry.favoriteID._id }).unwrap()
    } catch {
      // spec 2 §8: a failed favorite removal is silent.
    }
    setRemoving(null)
  }

  let body
  if (!user) {
    body = (
      <p className="error-state" role="alert">
        {Messages.favorites.loginToViewPosts}
      </p>
    )
  } else if (isLoading) {
    body = (
      <p className="page-loading" role="status">
        Loading your favorite posts...
      </p>
    )
  } else if (isError) {
    body = (
      <p className="error-state" role="alert">
        {Messages.favorites.loadPostsFailed}
      </p>
    )
  } else if (shown.length === 0) {
    body = <p className="empty-state">You haven&apos;t saved any posts to your favorites yet.</p>
  } else {
    body = (
      <ul className={view === 'grid' ? 'grid' : 'list'} role="list" aria-label="Favorite posts">
        {shown.map((entry) => {
          const post = entry.favoriteID
          return (
            <li key={post._id} className="card settings-card" aria-label={post.title}>
              <img className="settings-card-picture" src={imageUrl(post.jobPicture)} alt="" />
              <div className="card-body">
                <h3 className="settings-card-title">{post.title}</h3>
                {post.location && <p className="muted">{post.location}</p>}
                {!post.isOnline && <span className="badge">Offline</span>}
                <div className="settings-card-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => dispatch(modalOpened({ kind: 'postDetails', post }))}
                  >
                    Details
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-primary"
                    onClick={() => dispatch(modalOpened({ kind: 'requestPost', post }))}
                  >
                    Send request
                  </button>
                  <IconButton
                    label={`Remove ${post.title} from favorites`}
                    onClick={() => setRemoving(entry)}
                  />
                </div>
              </div>
            </li>
          )
        })}
      </ul>
    )
  }

  return (
    <section className="settings-list-page" aria-labelledby="favorite-posts-title">
      <header className="settings-list-header">
        <h1 id="favorite-posts-title">Favorite Posts</h1>
      </header>
      <p className="muted settings-info">
        Find your favorite posts here. You can send a posts request on any post you like.
      </p>
      <div className="toolbar">
        <ViewToggle view={view} onChange={setView} />
        <SortSelect value={order} onChange={setOrder} />
        <ResetButton
          onClick={() => {
            setView('grid')
            setOrder('recent')
          }}
        />
      </div>
      {body}
      {removing && (
        <ConfirmModal
          title="Remove from Favorites"
          message={`Are you sure you want to remove "${removing.favoriteID.title}" from your favorites?`}
          confirmLabel="Remove"
          busy={removeState.isLoading}
          onCancel={() => setRemoving(null)}
          onConfirm={() => confirmRemove(removing)}
        />
      )}
    </section>
  )
}
