import { useState } from 'react'
import { useGetMyPostsQuery } from '@/features/posts/posts-api'
import type { JobPost } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'

/** A list answer whose entries all look like posts; anything else is a malformed answer. */
function asPosts(data: unknown): JobPost[] | null {
  if (!Array.isArray(data)) return null
  return data.every((entry) => entry && typeof entry === 'object' && typeof entry._id === 'string')
    ? (data as JobPost[])
    : null
}

/**
 * Why one's own post cannot take a request now, or null when it can. The server refuses a
 * request for a post that is not live (offline, expired, taken down) with a 400; the picker
 * says so before anyone tries. A post expiring on day D is live through the whole of D (UTC),
 * as the jobs service counts it.
 */
export function notRequestableReason(post: JobPost, now: Date = new Date()): string | null {
  if (post.takenDown) return 'Taken down by a moderator'
  if (!post.isOnline) return 'Offline: switch it online to request people for it'
  const today = now.toISOString().slice(0, 10)
  if (post.expirationDate && post.expirationDate.slice(0, 10) < today) return 'Expired'
  return null
}

/**
 * The post picker, shown as a step of the send-request-to-
 * person modal so only one dialog is ever open. Posts that cannot take a request are listed
 * after the others, their Select button disabled and the reason beside them.
 */
export function PostPicker({
  initial,
  onCancel,
  onConfirm,
}: {
  initial: JobPost | null
  onCancel: () => void
  onConfirm: (post: JobPost) => void
}) {
  const { data, isLoading, isFetching, isError, refetch } = useGetMyPostsQuery()
  const [chosen, setChosen] = useState<JobPost | null>(
    initial && notRequestableReason(initial) === null ? initial : null,
  )
  const [viewed, setViewed] = useState<string | null>(null)
  const listed = data === undefined ? undefined : asPosts(data)
  // Requestable posts first; the order within each group stays the server's.
  const posts =
    listed &&
    [...listed].sort(
      (a, b) => Number(notRequestableReason(a) !== null) - Number(notRequestableReason(b) !== null),
    )

  let body
  if (isLoading || (isFetching && !data)) {
    body = (
      <p className="muted" role="status">
        Loading posts...
      </p>
    )
  } else if (isError || posts === null) {
    body = (
      <div className="error-state" role="alert">
        <p>{isError ? Messages.postPicker.loadFailed : Messages.postPicker.invalidData}</p>
        <button type="button" className="btn btn-small" onClick={() => refetch()}>
          Try again
        </button>
      </div>
    )
  } else if (!posts || posts.length === 0) {
    body = <p className="empty-state">No jobs available</p>
  } else {
    body = (
      <ul className="post-picker-list">
        {posts.map((post) => {
          const selected = chosen?._id === post._id
          const reason = notRequestableReason(post)
          const reasonId = `post-picker-reason-${post._id}`
          return (
            <li
              key={post._id}
              className={selected ? 'post-picker-item selected' : 'post-picker-item'}
            >
              <div className="post-picker-summary">
                <strong>{post.title}</strong>
                <span className="muted">{post.location ?? ''}</span>
                {reason && (
                  <span id={reasonId} className="post-picker-reason">
                    {reason}
                  </span>
                )}
              </div>
              <div className="post-picker-actions">
                <button
                  type="button"
                  className="btn btn-small"
                  aria-expanded={viewed === post._id}
                  onClick={() => setViewed(viewed === post._id ? null : post._id)}
                >
                  View
                </button>
                <button
                  type="button"
                  className={selected ? 'btn btn-small btn-primary' : 'btn btn-small'}
                  aria-pressed={selected}
                  disabled={reason !== null}
                  aria-describedby={reason ? reasonId : undefined}
                  onClick={() => setChosen(post)}
                >
                  {selected ? 'Selected' : 'Select'}
                </button>
              </div>
              {viewed === post._id && (
                <dl className="post-picker-details">
                  {post.jobStartEnd && (
                    <>
                      <dt>When</dt>
                      <dd>{post.jobStartEnd}</dd>
                    </>
                  )}
                  {post.salary && (
                    <>
                      <dt>How much</dt>
                      <dd>{post.salary}</dd>
                    </>
                  )}
                  <dt>Infos</dt>
                  <dd>{post.infos || 'No details.'}</dd>
                </dl>
              )}
            </li>
          )
        })}
      </ul>
    )
  }

  return (
    <section aria-labelledby="post-picker-title" className="post-picker">
      <h3 id="post-picker-title">Select a Post</h3>
      <p className="muted">Choose the post you want to send a request for</p>
      {body}
      <div className="modal-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!chosen}
          onClick={() => chosen && onConfirm(chosen)}
        >
          Confirm Selection
        </button>
      </div>
    </section>
  )
}
