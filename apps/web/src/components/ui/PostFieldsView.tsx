import type { ReactNode } from 'react'
import './post-fields-view.css'

/** spec 1 §2: what stands in for a private location or contact. */
export const PRIVATE_FIELD_TOOLTIP = 'Visible only once your request is accepted'

export interface PostFieldsValue {
  title: string
  /** null: private and hidden from this viewer by the server. */
  location: string | null
  jobStartEnd: string
  salary: string
  paymentType: readonly string[]
  contact: string | null
  infos: string
  expirationDate: string | null
  pictureSrc: string
  /** The author's own view shows which fields are private. */
  displayLocation?: boolean
  displayContact?: boolean
}

function MaskedField({ label }: { label: string }) {
  return (
    <span
      className="masked-field"
      tabIndex={0}
      title={PRIVATE_FIELD_TOOLTIP}
      data-tooltip={PRIVATE_FIELD_TOOLTIP}
      aria-label={`${label} hidden. ${PRIVATE_FIELD_TOOLTIP}`}
    >
      <span className="masked-blur" aria-hidden="true">
        Hidden {label.toLowerCase()}
      </span>
    </span>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

/** The fields of a post, shared by the preview and the details modal. */
export function PostFieldsView({
  post,
  showPrivacy = false,
}: {
  post: PostFieldsValue
  showPrivacy?: boolean
}) {
  const privateBadge = (shown: boolean | undefined) =>
    showPrivacy && shown === false ? (
      <span className="badge badge-warning post-private-badge">Private</span>
    ) : null
  return (
    <div className="post-view">
      <img className="post-view-picture" src={post.pictureSrc} alt={`Picture of ${post.title}`} />
      <dl className="post-view-fields">
        <Row label="Where">
          {post.location === null ? (
            <MaskedField label="Location" />
          ) : (
            <>
              {post.location}
              {privateBadge(post.displayLocation)}
            </>
          )}
        </Row>
        {post.jobStartEnd && <Row label="When">{post.jobStartEnd}</Row>}
        {post.salary && <Row label="How much">{post.salary}</Row>}
        {post.paymentType.length > 0 && <Row label="Payment">{post.paymentType.join(', ')}</Row>}
        {post.contact === null ? (
          <Row label="Contact">
            <MaskedField label="Contact" />
          </Row>
        ) : (
          post.contact && (
            <Row label="Contact">
              {post.contact}
              {privateBadge(post.displayContact)}
            </Row>
          )
        )}
        {post.expirationDate && <Row label="Expires">{post.expirationDate.slice(0, 10)}</Row>}
      </dl>
      {post.infos && <p className="post-view-infos">{post.infos}</p>}
    </div>
  )
}
