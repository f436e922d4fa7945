import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { selectAccessToken } from '@/lib/auth-slice'
import { useUpdatePostMutation } from '@/features/posts/posts-api'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { errorMessage, errorStatus } from '@/lib/api'
import type { Post } from '@/lib/types'
import { CONTACT_OPTIONS, PAYMENT_OPTIONS } from '@marketplace/contracts/marketplace'
import {
  Messages,
  checkPostUpdatePrerequisites,
  formatPaymentList,
  parsePaymentText,
  validatePostModifyForm,
} from '@marketplace/contracts/validation'
import './my-posts.css'
import { EyeIcon } from '@/components/ui/EyeIcon'

interface ModifyForm {
  where: string
  when: string
  howmuch: string
  payment: string
  contact: string
  infos: string
  displayLocation: boolean
  displayContact: boolean
}

/** The form as the post stands: payment list prefilled joined with ' - ' (spec 2 §5). */
export function formFromPost(post: Post): ModifyForm {
  return {
    where: post.location ?? '',
    when: post.jobStartEnd ?? '',
    howmuch: post.salary ?? '',
    payment: formatPaymentList(post.paymentType ?? []),
    contact: post.contact ?? '',
    infos: post.infos ?? '',
    displayLocation: post.displayLocation,
    displayContact: post.displayContact,
  }
}

/** The PUT body (spec 2 §7): every field but the title, payment split on '-'. */
export function changesFromForm(form: ModifyForm) {
  return {
    location: form.where.trim(),
    jobStartEnd: form.when.trim(),
    salary: form.howmuch.trim(),
    paymentType: parsePaymentText(form.payment),
    contact: form.contact,
    infos: form.infos.trim(),
    displayLocation: form.displayLocation,
    displayContact: form.displayContact,
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

/** spec 2 §2.8 Modify modal: the title stays as it is. */
export function PostModifyModal({ post, onClose }: { post: Post; onClose: () => void }) {
  const navigate = useNavigate()
  const accessToken = useAppSelector(selectAccessToken)
  const initial = formFromPost(post)
  const [form, setForm] = useState<ModifyForm>(initial)
  const [error, setError] = useState<string | null>(null)
  const [updatePost, { isLoading }] = useUpdatePostMutation()
  const ids = {
    where: useId(),
    when: useId(),
    howmuch: useId(),
    payment: useId(),
    paymentHint: useId(),
    contact: useId(),
    infos: useId(),
  }
  const set = <K extends keyof ModifyForm>(key: K, value: ModifyForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
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

  const contactOptions: string[] = [...CONTACT_OPTIONS]
  if (form.contact && !contactOptions.includes(form.contact)) contactOptions.unshift(form.contact)

  return (
    <Modal title={`Modify "${post.title}"`} onClose={onClose} wide>
      <form className="post-modify" onSubmit={submit} noValidate>
        <p className="muted post-modify-title">
          Title: <strong>{post.title}</strong> (cannot be changed)
        </p>
        <div className="field">
          <label htmlFor={ids.where}>Where</label>
          <div className="field-with-eye">
            <input
              id={ids.where}
              value={form.where}
              onChange={(event) => set('where', event.target.value)}
            />
            <EyeToggle
              label="Location"
              shown={form.displayLocation}
              onToggle={() => set('displayLocation', !form.displayLocation)}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor={ids.when}>When</label>
          <input
            id={ids.when}
            value={form.when}
            onChange={(event) => set('when', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.howmuch}>How much</label>
          <input
            id={ids.howmuch}
            value={form.howmuch}
            onChange={(event) => set('howmuch', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.payment}>Payment</label>
          <input
            id={ids.payment}
            value={form.payment}
            aria-describedby={ids.paymentHint}
            onChange={(event) => set('payment', event.target.value)}
          />
          <span id={ids.paymentHint} className="field-hint">
            Separate options with &quot;-&quot;: {PAYMENT_OPTIONS.join(', ')}
          </span>
        </div>
        <div className="field">
          <label htmlFor={ids.contact}>Contact</label>
          <div className="field-with-eye">
            <select
              id={ids.contact}
              value={form.contact}
              onChange={(event) => set('contact', event.target.value)}
            >
              <option value="">None</option>
              {contactOptions.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
            <EyeToggle
              label="Contact"
              shown={form.displayContact}
              onToggle={() => set('displayContact', !form.displayContact)}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor={ids.infos}>Infos</label>
          <textarea
            id={ids.infos}
            rows={4}
            value={form.infos}
            onChange={(event) => set('infos', event.target.value)}
          />
        </div>
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
