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
 * The post picker (spec 1 §2 "Post picker modal"), shown as a step of the send-request-to-
 * person modal so only one dialog is ever open.
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
  const [chosen, setChosen] = useState<JobPost | null>(initial)
  const [viewed, setViewed] = useState<string | null>(null)
  const posts = data === undefined ? undefined : asPosts(data)

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
          return (
            <li
              key={post._id}
              className={selected ? 'post-picker-item selected' : 'post-picker-item'}
            >
              <div className="post-picker-summary">
                <strong>{post.title}</strong>
                <span className="muted">{post.location ?? ''}</span>
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
