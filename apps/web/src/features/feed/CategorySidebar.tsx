import { ALL_FILTER } from '@marketplace/contracts/marketplace'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import {
  CATEGORIES_LOGIN_MESSAGE,
  categoriesErrorText,
  useGetCategoriesQuery,
} from '@/features/feed/feed-api'
import { feedActions, selectFeed } from '@/features/feed/feed-slice'
import './feed.css'

/** "12 posts" / "1 person". */
export function totalLine(total: number, feedType: 'job' | 'worker'): string {
  if (feedType === 'job') return `${total} ${total === 1 ? 'post' : 'posts'}`
  return `${total} ${total === 1 ? 'person' : 'people'}`
}

/**
 * Categories with counts and a total line; the list needs login
 * (a guest, or a 401/403, reads "Please log in to view categories").
 */
export function CategorySidebar() {
  const dispatch = useAppDispatch()
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const { feedType, category } = useAppSelector(selectFeed)
  const { data, error, isLoading } = useGetCategoriesQuery(feedType, { skip: !loggedIn })

  const heading = feedType === 'job' ? 'Post categories' : 'People categories'
  let body
  if (!loggedIn) {
    body = <p className="muted category-message">{CATEGORIES_LOGIN_MESSAGE}</p>
  } else if (isLoading) {
    // In the room the total and the list will take, so the feed below it (on a phone) stays put.
    body = (
      <div className="category-pending">
        <p className="muted category-message" role="status">
          Loading categories...
        </p>
      </div>
    )
  } else if (error || !data) {
    body = (
      <p className="field-error category-message" role="alert">
        {categoriesErrorText(error)}
      </p>
    )
  } else {
    const entries = [ALL_FILTER, ...data.categories]
    body = (
      <>
        <p className="category-total">Total: {totalLine(data.total, feedType)}</p>
        {data.categories.length === 0 ? (
          <p className="muted category-message">No categories yet.</p>
        ) : (
          <ul className="category-list">
            {entries.map((name) => {
              const count = name === ALL_FILTER ? data.total : (data.counts[name] ?? 0)
              const active = name === category
              return (
                <li key={name}>
                  <button
                    type="button"
                    className={`category-item${active ? ' category-item-active' : ''}`}
                    aria-pressed={active}
                    onClick={() => dispatch(feedActions.categorySelected(name))}
                  >
                    <span>{name}</span>
                    <span className="badge">{count}</span>
                  </button>
                </li>
              )
            })}
          </ul>
        )}
      </>
    )
  }

  return (
    <aside className="category-sidebar card" aria-label={heading}>
      <div className="card-body">
        <h2 className="category-heading">{heading}</h2>
        {body}
      </div>
    </aside>
  )
}
