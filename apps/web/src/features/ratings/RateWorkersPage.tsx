import { useState } from 'react'
import type { RateableRequest } from '@marketplace/contracts/api'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { useGetRateableRequestsQuery, useRateWorkerMutation } from '@/features/ratings/ratings-api'
import { errorMessage } from '@/lib/api'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import { StarIcon } from '@/components/icons/StarIcon'
import '@/components/ui/list-page.css'
import './ratings.css'

const COMMENT_MAX = 500
const STARS = [1, 2, 3, 4, 5] as const

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })

function StarPicker({
  value,
  disabled,
  onChange,
}: {
  value: number
  disabled: boolean
  onChange(stars: number): void
}) {
  return (
    <div className="rating-stars" role="group" aria-label="Stars">
      {STARS.map((stars) => (
        <button
          key={stars}
          type="button"
          className={`rating-star${stars <= value ? ' rating-star-on' : ''}`}
          aria-label={`${stars} ${stars === 1 ? 'star' : 'stars'}`}
          aria-pressed={stars === value}
          disabled={disabled}
          onClick={() => onChange(stars)}
        >
          <StarIcon size={26} />
        </button>
      ))}
    </div>
  )
}

/** One accepted request: the worker, the post, and the owner's rating form. */
function RatingRow({ entry }: { entry: RateableRequest }) {
  const [stars, setStars] = useState(entry.rating?.stars ?? 0)
  const [comment, setComment] = useState(entry.rating?.comment ?? '')
  const [saved, setSaved] = useState(false)
  const [rateWorker, { isLoading, error, reset }] = useRateWorkerMutation()
  const locked = !!entry.rating && new Date(entry.rating.editableUntil).getTime() <= Date.now()
  const tooLong = [...comment.trim()].length > COMMENT_MAX
  const changed = (update: () => void) => {
    update()
    setSaved(false)
    reset()
  }

  const save = async (event: React.FormEvent) => {
    event.preventDefault()
    try {
      await rateWorker({ requestId: entry.requestId, stars, comment: comment.trim() }).unwrap()
      setSaved(true)
    } catch {
      // The message is shown from the mutation's error.
    }
  }

  const commentId = `rating-comment-${entry.requestId}`
  return (
    <li className="card rating-row" aria-label={entry.worker.name}>
      <form className="card-body rating-body" onSubmit={save}>
        <div className="rating-worker">
          <Picture
            className="rating-picture"
            picture={entry.worker.profilePicture}
            placeholder={DEFAULT_PROFILE_PICTURE}
            use="avatar"
            sizes="56px"
            alt=""
          />
          <div>
            <h2 className="rating-name">{entry.worker.name}</h2>
            {entry.worker.title && <p className="muted">{entry.worker.title}</p>}
            <p className="muted">for &quot;{entry.post.title}&quot;</p>
          </div>
        </div>
        <StarPicker
          value={stars}
          disabled={locked || isLoading}
          onChange={(next) => changed(() => setStars(next))}
        />
        <FormField
          id={commentId}
          label="Comment (optional)"
          hint={`${[...comment.trim()].length}/${COMMENT_MAX}`}
          invalid={tooLong}
        >
          <textarea
            id={commentId}
            rows={3}
            value={comment}
            disabled={locked || isLoading}
            aria-invalid={tooLong}
            aria-describedby={hintIdOf(commentId)}
            onChange={(event) => changed(() => setComment(event.target.value))}
          />
        </FormField>
        {entry.rating &&
          (locked ? (
            <p className="muted">This rating can no longer be changed.</p>
          ) : (
            <p className="muted">Editable until {dateText(entry.rating.editableUntil)}</p>
          ))}
        {error && (
          <p className="form-error" role="alert">
            {errorMessage(error, 'Could not save your rating. Please try again.')}
          </p>
        )}
        {saved && (
          <p className="form-success" role="status">
            Rating saved
          </p>
        )}
        {!locked && (
          <div className="rating-actions">
            <button
              type="submit"
              className="btn btn-primary btn-small"
              disabled={stars === 0 || tooLong || isLoading}
            >
              {isLoading ? 'Saving...' : 'Save'}
            </button>
          </div>
        )}
      </form>
    </li>
  )
}

/**
 * /settings-rate-your-workers: the workers of accepted requests on the caller's
 * posts, each rated 1 to 5 stars with a short comment (docs/ratings-and-stats.md).
 */
export default function RateWorkersPage() {
  const user = useAppSelector(selectCurrentUser)
  // A request accepted elsewhere becomes rateable: ask again each time the page opens.
  const {
    data: entries = [],
    isLoading,
    isError,
  } = useGetRateableRequestsQuery(undefined, {
    skip: !user,
    refetchOnMountOrArgChange: true,
  })

  let body
  if (!user) {
    body = (
      <p className="error-state" role="alert">
        Please log in to rate your workers.
      </p>
    )
  } else if (isLoading) {
    body = (
      <p className="page-loading" role="status">
        Loading...
      </p>
    )
  } else if (isError) {
    body = (
      <p className="error-state" role="alert">
        Could not load your workers. Please try again.
      </p>
    )
  } else if (entries.length === 0) {
    body = <p className="empty-state">No accepted requests to rate yet</p>
  } else {
    body = (
      <ul className="list rating-list" role="list" aria-label="Workers to rate">
        {entries.map((entry) => (
          <RatingRow key={entry.requestId} entry={entry} />
        ))}
      </ul>
    )
  }

  return (
    <section className="settings-list-page" aria-labelledby="rate-workers-title">
      <header className="settings-list-header">
        <h1 id="rate-workers-title">Rate your workers</h1>
      </header>
      <p className="muted settings-info">
        Rate the workers whose requests on your posts you accepted. You can change a rating for 14
        days.
      </p>
      {body}
    </section>
  )
}
