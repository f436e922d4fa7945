import { useAppSelector } from '@/app/hooks'
import { FeedSkeleton } from '@/features/feed/FeedSkeleton'
import { FEED_TEXTS } from '@/features/feed/feed-texts'
import { selectFeed } from '@/features/feed/feed-slice'
import './feed.css'

/**
 * The home route's outline while its code loads: the feed-type toggle, the sidebar and a
 * page of cards where HomePage will put them.
 */
export function HomePageSkeleton() {
  const { feedType, view } = useAppSelector(selectFeed)
  return (
    <div className="page feed-page">
      <div className="feed-type-toggle" aria-hidden="true">
        <span className="skeleton-toggle" />
        <span className="skeleton-toggle" />
      </div>
      <div className="feed-layout">
        <aside className="category-sidebar card" aria-hidden="true">
          <div className="card-body">
            <span className="skeleton-line skeleton-title" />
            <span className="skeleton-line skeleton-meta" />
          </div>
        </aside>
        <section className="feed-content">
          <FeedSkeleton layout={view} status={FEED_TEXTS[feedType].loading} />
        </section>
      </div>
    </div>
  )
}
