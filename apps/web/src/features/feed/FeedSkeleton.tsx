import { FEED_PAGE_SIZE } from '@marketplace/contracts/marketplace'
import './feed.css'

/**
 * A page of cards' outlines, in the feed's grid or list, while the page of posts or people
 * is on its way: the feed has its final shape from the first paint, and the
 * same outline is in index.html before any script runs. The status text is for screen
 * readers; the outlines are decoration.
 */
export function FeedSkeleton({ layout, status }: { layout: 'grid' | 'list'; status: string }) {
  return (
    <>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <div
        className={layout === 'list' ? 'list feed-items-list' : 'grid feed-items-grid'}
        aria-hidden="true"
      >
        {Array.from({ length: FEED_PAGE_SIZE }, (_, index) => (
          <div key={index} className={`card post-card post-card-${layout} skeleton-card`}>
            <div className="post-card-image skeleton-block" />
            <div className="card-body post-card-body">
              <span className="skeleton-line skeleton-title" />
              <span className="skeleton-line skeleton-meta" />
              <div className="card-actions">
                <span className="skeleton-button" />
                <span className="skeleton-button" />
              </div>
            </div>
          </div>
        ))}
      </div>
    </>
  )
}
