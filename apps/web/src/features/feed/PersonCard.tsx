import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser } from '@/lib/auth-slice'
import { personName, ratingText, skillsText } from '@/lib/person-display'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import { feedCardSizes } from '@/features/feed/PostCard'
import type { ShownPerson } from '@/lib/entities-api'
import { RatingText } from '@/components/ui/RatingText'
import './feed.css'
import { distanceText } from '@/features/feed/distance'

/**
 * Picture, name, Details and "Request {firstname}"; the request
 * button is hidden on the signed-in user's own card.
 */
export function PersonCard({ person, layout }: { person: ShownPerson; layout: 'grid' | 'list' }) {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const isSelf = !!user && user._id === person._id
  const name = personName(person)
  const firstName = person.firstName?.trim() || name
  const rating = ratingText(person.rating)
  const skills = skillsText(person.skills)

  return (
    <article className={`card post-card post-card-${layout}`} aria-label={name}>
      <Picture
        className="post-card-image person-card-image"
        picture={person.profilePicture}
        placeholder={DEFAULT_PROFILE_PICTURE}
        use="card"
        sizes={feedCardSizes(layout)}
        alt=""
        width={400}
        height={300}
        loading="lazy"
        decoding="async"
      />
      <div className="card-body post-card-body">
        <h3 className="post-card-title">{name}</h3>
        {person.title && <p className="post-card-meta">{person.title}</p>}
        {person.distanceMiles !== undefined && (
          <p className="post-card-meta post-card-distance">{distanceText(person.distanceMiles)}</p>
        )}
        {skills && <p className="post-card-meta muted">{skills}</p>}
        {rating && <RatingText className="post-card-meta person-card-rating" text={rating} />}
        <div className="card-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => dispatch(modalOpened({ kind: 'workerDetails', person }))}
          >
            Details
          </button>
          {!isSelf && (
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() => dispatch(modalOpened({ kind: 'requestPerson', person }))}
            >
              Request {firstName}
            </button>
          )}
        </div>
      </div>
    </article>
  )
}
