import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser } from '@/lib/auth-slice'
import { Picture } from '@/components/ui/Picture'
import { GRID_CARD_SIZES } from '@/lib/images'
import type { JobPost } from '@marketplace/contracts/api'
import { distanceText } from '@/features/feed/distance'
import './feed.css'

export const HIDDEN_LOCATION_HINT = 'Location visible once accepted'

/**
 * `sizes` of a feed card's picture (feed.css): a grid column, or the list's 160 px wide
 * thumbnail (110 px on a phone). A phone at DPR 2-3 then takes w480 or w960.
 */
export const feedCardSizes = (layout: 'grid' | 'list') =>
  layout === 'grid' ? GRID_CARD_SIZES : '(max-width: 768px) 110px, 160px'

/**
 * Image (placeholder when missing), title, Details and Send request.
 * The owner sees no request button on their own post.
 */
export function PostCard({ post, layout }: { post: JobPost; layout: 'grid' | 'list' }) {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const isOwner = !!user && user._id === post.userID

  return (
    <article className={`card post-card post-card-${layout}`} aria-label={post.title}>
      {/* width and height give the picture its 4:3 box before it arrives (no layout shift). */}
      <Picture
        className="post-card-image"
        picture={post.jobPicture}
        use="card"
        sizes={feedCardSizes(layout)}
        alt=""
        width={400}
        height={300}
        loading="lazy"
        decoding="async"
      />
      <div className="card-body post-card-body">
        <h3 className="post-card-title">{post.title}</h3>
        {post.location !== null ? (
          post.location && <p className="post-card-meta">{post.location}</p>
        ) : (
          // Private location is masked with a hint until the request is accepted.
          <p className="post-card-meta post-card-hidden" title={HIDDEN_LOCATION_HINT}>
            <span className="masked" aria-hidden="true">
              ••••••••
            </span>
            <span className="field-hint">{HIDDEN_LOCATION_HINT}</span>
          </p>
        )}
        {post.distanceMiles !== undefined && (
          <p className="post-card-meta post-card-distance">
            {distanceText(post.distanceMiles, post.distanceRounded === true)}
          </p>
        )}
        {post.salary && <p className="post-card-meta muted">{post.salary}</p>}
        <div className="card-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => dispatch(modalOpened({ kind: 'postDetails', post }))}
          >
            Details
          </button>
          {!isOwner && (
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() => dispatch(modalOpened({ kind: 'requestPost', post }))}
            >
              Send request
            </button>
          )}
        </div>
      </div>
    </article>
  )
}
