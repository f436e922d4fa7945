import { useState } from 'react'
import type { FavoritePostEntry } from '@marketplace/contracts/api'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser } from '@/lib/auth-slice'
import {
  useGetFavoritePostsQuery,
  useRemoveFavoritePostMutation,
} from '@/features/favorites/favorites-api'
import { FavoritesContent, type FavoritesTexts } from '@/features/favorites/FavoritesContent'
import { useFavoritesList } from '@/features/favorites/use-favorites-list'
import {
  IconButton,
  ResetButton,
  SortSelect,
  ViewToggle,
  type ListView,
} from '@/components/ui/ListControls'
import { sortByDate, type DateOrder } from '@/lib/sort-by-date'
import { Picture } from '@/components/ui/Picture'
import { settingsCardSizes } from '@/components/ui/settings-card-sizes'
import { Messages } from '@marketplace/contracts/validation'
import '@/components/ui/list-page.css'
import './favorites.css'

/** The texts of the list's states and of a removal. */
const TEXTS: FavoritesTexts<FavoritePostEntry> = {
  signedOut: Messages.favorites.loginToViewPosts,
  loading: 'Loading your favorite posts...',
  failed: Messages.favorites.loadPostsFailed,
  empty: "You haven't saved any posts to your favorites yet.",
  removeQuestion: ({ favoriteID: post }) =>
    `Are you sure you want to remove "${post.title}" from your favorites?`,
}

/** Settings › Favorite posts, sorted by when they were saved. */
export default function FavoritePostsPage() {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const favorites = useGetFavoritePostsQuery(user?._id ?? '', { skip: !user })
  const entries = favorites.data ?? []
  const [removeFavorite, removeState] = useRemoveFavoritePostMutation()
  const [view, setView] = useState<ListView>('grid')
  const [order, setOrder] = useState<DateOrder>('recent')

  const shown = sortByDate(entries, (entry) => entry.createdAt, order)
  const list = useFavoritesList(user?._id, favorites, shown, {
    remove: (userId, entry) => removeFavorite({ userId, postId: entry.favoriteID._id }).unwrap(),
    busy: removeState.isLoading,
  })

  function renderList() {
    return (
      <ul className={view === 'grid' ? 'grid' : 'list'} role="list" aria-label="Favorite posts">
        {shown.map((entry) => {
          const post = entry.favoriteID
          return (
            <li key={post._id} className="card settings-card" aria-label={post.title}>
              <Picture
                className="settings-card-picture"
                picture={post.jobPicture}
                use="card"
                sizes={settingsCardSizes(view)}
                alt=""
              />
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
                    onClick={() => list.ask(entry)}
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
      <FavoritesContent list={list} texts={TEXTS} renderList={renderList} />
    </section>
  )
}
