import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { selectAccessToken } from '@/lib/auth-slice'
import { useUpdatePostMutation } from '@/features/posts/posts-api'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { errorMessage, errorStatus } from '@/lib/api'
import type { JobPost } from '@marketplace/contracts/api'
import {
  Messages,
  checkContactValue,
  checkPostUpdatePrerequisites,
  contactValueKind,
  formatContactValue,
  formatPaymentList,
  normalizeContactValue,
  parsePaymentText,
  validatePostModifyForm,
} from '@marketplace/contracts/validation'
import { EyeIcon } from '@/components/ui/EyeIcon'
import { isCategory } from '@marketplace/contracts/marketplace'
import { CategoryField } from '@/features/posts/CategoryField'
import {
  ContactField,
  ContactValueField,
  HowMuchField,
  InfosField,
  PaymentListField,
  WhenField,
  WhereField,
} from '@/features/posts/PostFormFields'
import './my-posts.css'

interface ModifyForm {
  where: string
  when: string
  howmuch: string
  payment: string
  contact: string
  contactValue: string
  infos: string
  displayLocation: boolean
  displayContact: boolean
  /** The post's category as it stands, which the owner may change. */
  category: string
}

/** The form as the post stands: payment list prefilled joined with ' - '. */
export function formFromPost(post: JobPost): ModifyForm {
  return {
    where: post.location ?? '',
    when: post.jobStartEnd ?? '',
    howmuch: post.salary ?? '',
    payment: formatPaymentList(post.paymentType ?? []),
    contact: post.contact ?? '',
    contactValue: post.contactValue ? formatContactValue(post.contact, post.contactValue) : '',
    infos: post.infos ?? '',
    displayLocation: post.displayLocation,
    displayContact: post.displayContact,
    category: post.category,
  }
}

/**
 * The PUT body: every field but the title, payment split on '-'. The contact value goes along
 * with a method (empty clears it: the value is optional); the category unless it is an older
 * value outside the feed's list, which the post then keeps.
 */
export function changesFromForm(form: ModifyForm) {
  return {
    location: form.where.trim(),
    jobStartEnd: form.when.trim(),
    salary: form.howmuch.trim(),
    paymentType: parsePaymentText(form.payment),
    contact: form.contact,
    ...(form.contact
      ? { contactValue: normalizeContactValue(form.contact, form.contactValue) }
      : {}),
    infos: form.infos.trim(),
    displayLocation: form.displayLocation,
    displayContact: form.displayContact,
    ...(isCategory(form.category) ? { category: form.category } : {}),
  }
}

function EyeToggle({
  shown,
  label,
  onToggle,
}: {
  shown: boolean
  label: string
  onToggle: () => void
}) {
  const text = shown
    ? `${label} is visible to everyone`
    : `${label} is hidden until you accept a request`
  return (
    <button
      type="button"
      className={shown ? 'icon-btn eye-toggle' : 'icon-btn eye-toggle eye-hidden'}
      aria-pressed={!shown}
      aria-label={`Hide ${label.toLowerCase()}`}
      title={text}
      onClick={onToggle}
    >
      <EyeIcon open={shown} />
    </button>
  )
}

/** The Modify modal of My posts: the title stays as it is. */
export function PostModifyModal({ post, onClose }: { post: JobPost; onClose: () => void }) {
  const navigate = useNavigate()
  const accessToken = useAppSelector(selectAccessToken)
  const initial = formFromPost(post)
  const [form, setForm] = useState<ModifyForm>(initial)
  const [error, setError] = useState<string | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const [updatePost, { isLoading }] = useUpdatePostMutation()
  const contactValueProblem = checkContactValue(form.contact, form.contactValue)
  const set = <K extends keyof ModifyForm>(key: K, value: ModifyForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    const problem =
      checkPostUpdatePrerequisites({ postId: post._id, accessToken }) ??
      validatePostModifyForm(form)
    if (problem) {
      setError(problem)
      return
    }
    setError(null)
    try {
      await updatePost({ id: post._id, changes: changesFromForm(form) }).unwrap()
      onClose()
    } catch (failure) {
      const status = errorStatus(failure)
      if (status === 401) {
        navigate(paths.login)
        return
      }
      setError(
        status === 400
          ? errorMessage(failure, Messages.post.updateFailed)
          : Messages.post.updateFailed,
      )
    }
  }

  return (
    <Modal title={`Modify "${post.title}"`} onClose={onClose} wide>
      <form className="post-modify" onSubmit={submit} noValidate>
        <p className="muted post-modify-title">
          Title: <strong>{post.title}</strong> (cannot be changed)
        </p>
        <WhereField
          value={form.where}
          onChange={(value) => set('where', value)}
          addon={
            <EyeToggle
              label="Location"
              shown={form.displayLocation}
              onToggle={() => set('displayLocation', !form.displayLocation)}
            />
          }
        />
        <WhenField value={form.when} onChange={(value) => set('when', value)} />
        <HowMuchField value={form.howmuch} onChange={(value) => set('howmuch', value)} />
        <PaymentListField value={form.payment} onChange={(value) => set('payment', value)} />
        <ContactField
          value={form.contact}
          onChange={(value) => {
            // Another kind of method (a handle after a number) asks for another value.
            if (contactValueKind(value) !== contactValueKind(form.contact)) set('contactValue', '')
            set('contact', value)
          }}
          addon={
            <EyeToggle
              label="Contact"
              shown={form.displayContact}
              onToggle={() => set('displayContact', !form.displayContact)}
            />
          }
        />
        <ContactValueField
          method={form.contact}
          value={form.contactValue}
          onChange={(value) => set('contactValue', value)}
          problem={contactValueProblem}
          showProblem={submitted}
        />
        <InfosField value={form.infos} onChange={(value) => set('infos', value)} />
        <CategoryField value={form.category} onChange={(value) => set('category', value)} />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button
            type="button"
            className="btn"
            disabled={isLoading}
            onClick={() => {
              setForm(initial)
              setError(null)
              setSubmitted(false)
            }}
          >
            Undo changes
          </button>
          <button type="submit" className="btn btn-primary" disabled={isLoading}>
            {isLoading ? 'Updating...' : 'Confirm Changes'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
