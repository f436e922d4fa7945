import { useEffect, useState, type ReactNode } from 'react'
import {
  Messages,
  contactValueField,
  contactValueKind,
  formatContactValue,
} from '@marketplace/contracts/validation'
import { Picture } from '@/components/ui/Picture'
import './post-fields-view.css'

/** What stands in for a private location or contact. */
export const PRIVATE_FIELD_TOOLTIP = 'Visible only once your request is accepted'

export interface PostFieldsValue {
  title: string
  /** null: private and hidden from this viewer by the server. */
  location: string | null
  jobStartEnd: string
  salary: string
  paymentType: readonly string[]
  /** The contact method; null: private and hidden from this viewer by the server. */
  contact: string | null
  /**
   * How to reach the poster: the value when this viewer may see it; null when the post has
   * none. Undefined where a caller has no value to show.
   */
  contactValue?: string | null
  infos: string
  expirationDate: string | null
  /** The post's upload key, or the address of a local preview; none: the placeholder. */
  picture: string | null
  /** The author's own view shows which fields are private. */
  displayLocation?: boolean
  displayContact?: boolean
}

function MaskedField({ label, mask }: { label: string; mask?: string }) {
  return (
    <span
      className="masked-field"
      tabIndex={0}
      title={PRIVATE_FIELD_TOOLTIP}
      data-tooltip={PRIVATE_FIELD_TOOLTIP}
      aria-label={`${label} hidden. ${PRIVATE_FIELD_TOOLTIP}`}
    >
      <span className="masked-blur" aria-hidden="true">
        {mask ?? `Hidden ${label.toLowerCase()}`}
      </span>
    </span>
  )
}

/** How long "Copied" stays after a copy. */
export const COPIED_FEEDBACK_MS = 2000

/** Copies the contact value; says "Copied" (also to screen readers) once it is done. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), COPIED_FEEDBACK_MS)
    return () => clearTimeout(timer)
  }, [state])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      // No clipboard (an insecure origin, a refused permission): the value stays selectable.
      setState('failed')
    }
  }
  return (
    <>
      <button
        type="button"
        className="btn btn-small post-contact-copy"
        aria-label={`Copy ${label}`}
        onClick={() => void copy()}
      >
        {state === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Could not copy; select it instead'
            : ''}
      </span>
    </>
  )
}

/**
 * The contact value beside its method, with a copy button; for a post without a value, where
 * the poster will share it.
 */
function ContactValue({ post, isAuthor }: { post: PostFieldsValue; isAuthor: boolean }) {
  if (post.contactValue === undefined) return null
  if (post.contactValue) {
    const shown = formatContactValue(post.contact, post.contactValue)
    const kind = contactValueKind(post.contact)
    return (
      <span className="post-contact-value">
        <span className="post-contact-text">{shown}</span>
        <CopyButton
          text={shown}
          label={
            kind === 'text' || !kind ? 'contact details' : contactValueField(post.contact).label
          }
        />
      </span>
    )
  }
  return (
    <span className="post-contact-value muted">
      {isAuthor ? 'No contact details yet: add them with Modify' : Messages.contactValue.notShared}
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

/**
 * `sizes` of the picture (post-fields-view.css): the full width of a wide modal's content,
 * min(820px, 100vw - 2 × 16px) less 2 × 24px of padding. A desktop at DPR 2 takes w1280,
 * the largest a details view lists; a phone at DPR 3, w960 or w1280.
 */
export const POST_PICTURE_SIZES = '(max-width: 852px) calc(100vw - 80px), 772px'

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
      <Picture
        className="post-view-picture"
        picture={post.picture}
        use="details"
        sizes={POST_PICTURE_SIZES}
        alt={`Picture of ${post.title}`}
      />
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
              <span className="post-contact-method">{post.contact}</span>
              {privateBadge(post.displayContact)}
              <ContactValue post={post} isAuthor={showPrivacy} />
            </Row>
          )
        )}
        {post.expirationDate && <Row label="Expires">{post.expirationDate.slice(0, 10)}</Row>}
      </dl>
      {post.infos && <p className="post-view-infos">{post.infos}</p>}
    </div>
  )
}
