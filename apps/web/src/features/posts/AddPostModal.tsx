import { useCloseModal } from '@/app/modals/use-close-modal'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalClosed } from '@/app/ui-slice'
import { selectAccessToken, selectCurrentUser } from '@/lib/auth-slice'
import { useCreatePostMutation } from '@/features/posts/posts-api'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import { PostFieldsView } from '@/components/ui/PostFieldsView'
import { usePictureUpload } from '@/features/posts/use-picture-upload'
import { Modal } from '@/components/ui/Modal'
import {
  Messages,
  canPreviewPost,
  checkContactValue,
  checkExpirationDate,
  contactValueKind,
  isoDateOf,
  localToday,
  normalizeContactValue,
  validatePostForm,
} from '@marketplace/contracts/validation'
import { guessPostCategory } from '@marketplace/contracts/marketplace'
import { CategoryField } from './CategoryField'
import {
  ContactField,
  ContactValueField,
  HowMuchField,
  InfosField,
  PaymentChoices,
  TitleField,
  WhenField,
  WhereField,
} from './PostFormFields'
import './posts.css'

/** The "Post created successfully!" overlay lasts 2 seconds. */
export const CREATED_OVERLAY_MS = 2000

interface FormState {
  title: string
  where: string
  when: string
  howmuch: string
  payment: string[]
  contact: string
  contactValue: string
  infos: string
  expirationDate: string
  displayLocation: boolean
  displayContact: boolean
  /** The category the user picked; null while the form shows the guess. */
  category: string | null
}

// Location and contact default to private.
const EMPTY_FORM: FormState = {
  title: '',
  where: '',
  when: '',
  howmuch: '',
  payment: [],
  contact: '',
  contactValue: '',
  infos: '',
  expirationDate: '',
  displayLocation: false,
  displayContact: false,
  category: null,
}

/** "Add a post": the form, its preview, and the creation. */
export default function AddPostModal() {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const token = useAppSelector(selectAccessToken)
  const [createPost, { isLoading: saving }] = useCreatePostMutation()
  const picture = usePictureUpload()
  const [form, setForm] = useState<FormState>(EMPTY_FORM)
  const [step, setStep] = useState<'form' | 'preview'>('form')
  const [error, setError] = useState<string | null>(null)
  const [created, setCreated] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const [pickerKey, setPickerKey] = useState(0)
  const ids = { expiration: useId(), picture: useId(), previewHint: useId() }
  const close = useCloseModal()
  const today = localToday()
  const previewable = canPreviewPost(form)
  const expirationProblem = checkExpirationDate(form.expirationDate, today)
  const contactValueProblem = checkContactValue(form.contact, form.contactValue)
  const contactValue = normalizeContactValue(form.contact, form.contactValue)
  // The server's own guess, run as the user types, until the user picks a category.
  const category = form.category ?? guessPostCategory(form.title, form.infos)

  useEffect(() => {
    if (!created) return
    const timer = setTimeout(() => dispatch(modalClosed()), CREATED_OVERLAY_MS)
    return () => clearTimeout(timer)
  }, [created, dispatch])

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((current) => ({ ...current, [key]: value }))
    setError(null)
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (saving || picture.busy) return
    if (!user?._id || !token) {
      window.alert(Messages.post.notLoggedIn)
      return
    }
    setSubmitted(true)
    const problem = validatePostForm(form, today)
    if (problem) {
      setError(problem)
      setStep('form')
      return
    }
    try {
      await createPost({
        title: form.title.trim(),
        where: form.where.trim(),
        when: form.when.trim(),
        howmuch: form.howmuch.trim(),
        payment: form.payment,
        contact: form.contact,
        ...(form.contact ? { contactValue } : {}),
        infos: form.infos.trim(),
        expirationDate: form.expirationDate || null,
        displayLocation: form.displayLocation,
        displayContact: form.displayContact,
        jobPicture: picture.objectKey,
        category,
      }).unwrap()
      setForm(EMPTY_FORM)
      picture.reset()
      setPickerKey((key) => key + 1)
      setStep('form')
      setSubmitted(false)
      setCreated(true)
    } catch {
      setError(Messages.post.createFailed)
    }
  }

  const submitLabel = saving ? 'Creating...' : 'Add this post'
  const submitDisabled = saving || picture.busy || created

  return (
    <Modal title={step === 'preview' ? 'Post preview' : 'Add a post'} onClose={close} wide>
      <div className="add-post">
        {created && (
          <div className="add-post-overlay" role="status">
            <p>{Messages.post.created}</p>
          </div>
        )}
        {step === 'preview' ? (
          <div className="post-preview">
            <h3 className="post-view-title">{form.title}</h3>
            <PostFieldsView
              showPrivacy
              post={{
                title: form.title,
                location: form.where,
                jobStartEnd: form.when,
                salary: form.howmuch,
                paymentType: form.payment,
                contact: form.contact,
                contactValue: contactValue || undefined,
                infos: form.infos,
                expirationDate: form.expirationDate || null,
                picture: picture.previewUrl,
                displayLocation: form.displayLocation,
                displayContact: form.displayContact,
              }}
            />
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <div className="modal-actions">
              <button type="button" className="btn" onClick={() => setStep('form')}>
                Back to the form
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={submitDisabled}
                onClick={() => submit()}
              >
                {submitLabel}
              </button>
            </div>
          </div>
        ) : (
          <form className="add-post-form" onSubmit={submit} noValidate>
            <div className="add-post-grid">
              <TitleField value={form.title} onChange={(value) => set('title', value)} />
              <WhereField required value={form.where} onChange={(value) => set('where', value)} />
              <WhenField value={form.when} onChange={(value) => set('when', value)} />
              <HowMuchField value={form.howmuch} onChange={(value) => set('howmuch', value)} />
            </div>

            <CategoryField
              value={category}
              onChange={(value) => set('category', value)}
              hint={
                form.category === null
                  ? 'Suggested from what you wrote; pick another if it fits better'
                  : undefined
              }
            />

            <PaymentChoices value={form.payment} onChange={(value) => set('payment', value)} />

            <div className="add-post-grid">
              <ContactField
                value={form.contact}
                onChange={(value) => {
                  // Another kind of method (a handle after a number) asks for another value.
                  if (contactValueKind(value) !== contactValueKind(form.contact))
                    set('contactValue', '')
                  set('contact', value)
                }}
              />
              <ContactValueField
                method={form.contact}
                value={form.contactValue}
                onChange={(value) => set('contactValue', value)}
                problem={contactValueProblem}
                showProblem={submitted}
              />
              <FormField
                id={ids.expiration}
                label="Expiration date (optional)"
                hint={expirationProblem}
                invalid={!!expirationProblem}
              >
                <div className="add-post-date">
                  <input
                    id={ids.expiration}
                    type="date"
                    value={form.expirationDate}
                    min={isoDateOf(today)}
                    aria-invalid={!!expirationProblem}
                    aria-describedby={expirationProblem ? hintIdOf(ids.expiration) : undefined}
                    onChange={(event) => set('expirationDate', event.target.value)}
                  />
                  {form.expirationDate && (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => set('expirationDate', '')}
                    >
                      Clear
                    </button>
                  )}
                </div>
              </FormField>
            </div>

            <InfosField value={form.infos} onChange={(value) => set('infos', value)} />

            <fieldset className="add-post-privacy">
              <legend>Privacy</legend>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={form.displayLocation}
                  onChange={(event) => set('displayLocation', event.target.checked)}
                />
                Show the location to everyone
              </label>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={form.displayContact}
                  onChange={(event) => set('displayContact', event.target.checked)}
                />
                Show the contact to everyone
              </label>
              <span className="field-hint">
                Unchecked, they are shown only to the people whose request you accept. The contact
                method is always shown; what stays private is how to reach you.
              </span>
            </fieldset>

            <FormField id={ids.picture} label="Picture (.png, .jpg, .jpeg, up to 5MB)">
              <input
                key={pickerKey}
                id={ids.picture}
                type="file"
                accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                disabled={picture.busy}
                onChange={(event) => void picture.pick(event.target.files?.[0])}
              />
              {picture.uploading && (
                <progress
                  className="add-post-progress"
                  max={100}
                  value={picture.progress}
                  aria-label="Upload progress"
                >
                  {picture.progress}%
                </progress>
              )}
              {picture.message && (
                <span
                  className={
                    picture.failed
                      ? 'field-error'
                      : picture.status === 'checking'
                        ? 'field-hint'
                        : 'form-success'
                  }
                  role={picture.failed ? 'alert' : 'status'}
                >
                  {picture.message}
                </span>
              )}
            </FormField>

            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <div className="modal-actions">
              {!previewable && (
                <span id={ids.previewHint} className="field-hint add-post-hint">
                  {Messages.post.titleAndLocationRequired}
                </span>
              )}
              <button
                type="button"
                className="btn"
                disabled={!previewable}
                aria-describedby={previewable ? undefined : ids.previewHint}
                onClick={() => setStep('preview')}
              >
                Preview
              </button>
              <button type="submit" className="btn btn-primary" disabled={submitDisabled}>
                {submitLabel}
              </button>
            </div>
          </form>
        )}
      </div>
    </Modal>
  )
}
