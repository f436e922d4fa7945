import { useState, type FormEvent } from 'react'
import {
  PROFILE_COMPLETION_FIELDS,
  PROFILE_PICTURE_ALLOWED_TYPES,
} from '@marketplace/contracts/marketplace'
import {
  buildWorkerProfilePayload,
  contactVisibilityHelp,
  contactVisibilityOf,
  formatCommaList,
  validateWorkerProfileForm,
  type WorkerProfileForm,
  type WorkerProfilePayload,
} from '@marketplace/contracts/validation'
import { Modal } from '@/components/ui/Modal'
import { useSaveWorkerProfileMutation } from '@/features/settings/account-api'
import { useProfilePictureUpload } from '@/features/settings/worker-profile/use-profile-picture-upload'
import { track } from '@/lib/analytics'
import { errorMessage } from '@/lib/api'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import type { PersonSelfView } from '@marketplace/contracts/api'
import { EyeIcon } from '@/components/ui/EyeIcon'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import '@/features/settings/worker-profile/worker-profile.css'

const formOf = (profile: PersonSelfView | null): WorkerProfileForm => ({
  title: profile?.title ?? '',
  skills: formatCommaList(profile?.skills ?? []),
  availability: profile?.availability ?? '',
  paymentType: profile?.paymentType ?? '',
  location: profile?.location ?? '',
  infos: profile?.infos ?? '',
  contacts: formatCommaList((profile?.contacts ?? []).map((contact) => contact.value)),
  contactVisibility: contactVisibilityOf(profile?.contacts),
})

type TextField = Exclude<keyof WorkerProfileForm, 'contactVisibility'>

const FIELDS: Array<{ name: TextField; label: string; hint?: string; long?: boolean }> = [
  { name: 'title', label: 'Title', hint: 'What you do, e.g. "Gardener" or "Math tutor".' },
  { name: 'skills', label: 'Skills', hint: 'Separate skills with commas.' },
  { name: 'availability', label: 'Availability', hint: 'e.g. "Weekends" or "Evenings".' },
  { name: 'paymentType', label: 'Payment Type', hint: 'e.g. "Hourly" or "Per job".' },
  { name: 'location', label: 'Location' },
  { name: 'infos', label: 'Additional Information', long: true },
  { name: 'contacts', label: 'Contacts', hint: 'Separate contacts with commas.' },
]

const OPTIONAL: ReadonlySet<TextField> = new Set(['infos', 'contacts'])

/** How many of the six counted fields the saved profile fills (a count, no values). */
export function profileCompletion(profile: Partial<PersonSelfView> | null | undefined): number {
  return PROFILE_COMPLETION_FIELDS.filter((field) => {
    const value: unknown = profile?.[field]
    return Array.isArray(value) ? value.length > 0 : typeof value === 'string' && !!value.trim()
  }).length
}

/** The create/edit modal; a 200 closes it. */
export function WorkerProfileModal({
  userId,
  profile,
  onClose,
}: {
  userId: string
  /** The current profile when editing; null to create one. */
  profile: PersonSelfView | null
  onClose: () => void
}) {
  const editing = !!profile?.isWorker
  const [form, setForm] = useState<WorkerProfileForm>(() => formOf(editing ? profile : null))
  const [problem, setProblem] = useState<string | null>(null)
  const [save, { isLoading }] = useSaveWorkerProfileMutation()
  const upload = useProfilePictureUpload()
  const title = editing ? 'Edit Profile' : 'Create Profile'

  const set = (field: TextField) => (value: string) => setForm((f) => ({ ...f, [field]: value }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (upload.busy) return
    const invalid = validateWorkerProfileForm(form)
    if (invalid) {
      setProblem(invalid)
      return
    }
    setProblem(null)
    const payload: WorkerProfilePayload = buildWorkerProfilePayload(form)
    // Without a new upload the server keeps the current picture.
    if (upload.objectKey) payload.profilePicture = upload.objectKey
    try {
      const saved = await save({ id: userId, ...payload }).unwrap()
      track('worker_profile_saved', {
        completion: profileCompletion(saved),
        of: PROFILE_COMPLETION_FIELDS.length,
      })
      onClose()
    } catch (failure) {
      console.error('Worker profile not saved', failure)
      setProblem(errorMessage(failure, 'Failed to save your profile. Please try again.'))
    }
  }

  const picture = upload.previewUrl ?? (editing ? profile?.profilePicture : null)

  return (
    <Modal title={title} onClose={onClose} wide>
      <form className="worker-profile-form" onSubmit={submit} noValidate>
        <div className="worker-photo-field">
          <Picture
            picture={picture}
            placeholder={DEFAULT_PROFILE_PICTURE}
            use="avatar"
            sizes="72px"
            alt=""
            className="worker-photo-preview"
          />
          <FormField id="worker-photo" label="Profile photo">
            <input
              id="worker-photo"
              type="file"
              accept={PROFILE_PICTURE_ALLOWED_TYPES.join(',')}
              onChange={(event) => void upload.pick(event.target.files?.[0])}
            />
            {upload.uploading && (
              <progress
                className="worker-photo-progress"
                max={100}
                value={upload.progress}
                aria-label="Upload progress"
              >
                {upload.progress}%
              </progress>
            )}
            {upload.message && (
              <p
                className={upload.failed ? 'field-error' : 'field-hint'}
                role={upload.failed ? 'alert' : 'status'}
              >
                {upload.message}
              </p>
            )}
          </FormField>
        </div>
        {FIELDS.map((field) => {
          const id = `worker-${field.name}`
          const control = {
            id,
            value: form[field.name] ?? '',
            'aria-describedby': field.hint ? hintIdOf(id) : undefined,
          }
          return (
            <FormField
              key={field.name}
              id={id}
              label={field.label}
              optional={OPTIONAL.has(field.name)}
              hint={field.hint}
              after={
                field.name === 'contacts' && (
                  <ContactsVisibility
                    visibility={form.contactVisibility}
                    onToggle={() =>
                      setForm((f) => ({
                        ...f,
                        contactVisibility: f.contactVisibility === 'public' ? 'hidden' : 'public',
                      }))
                    }
                  />
                )
              }
            >
              {field.long ? (
                <textarea
                  {...control}
                  rows={4}
                  onChange={(event) => set(field.name)(event.target.value)}
                />
              ) : (
                <input {...control} onChange={(event) => set(field.name)(event.target.value)} />
              )}
            </FormField>
          )
        })}
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose} disabled={isLoading}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={isLoading || upload.busy}>
            {isLoading ? 'Saving...' : editing ? 'Save Changes' : 'Create Profile'}
          </button>
        </div>
      </form>
    </Modal>
  )
}

/** Contacts shown to everyone or hidden until a request is accepted, and what that means. */
function ContactsVisibility({
  visibility,
  onToggle,
}: {
  visibility: WorkerProfileForm['contactVisibility']
  onToggle: () => void
}) {
  return (
    <div className="worker-visibility">
      <button
        type="button"
        className="icon-btn"
        aria-pressed={visibility === 'public'}
        aria-label={
          visibility === 'public'
            ? 'Contacts visible to everyone: hide them'
            : 'Contacts hidden: show them to everyone'
        }
        onClick={onToggle}
      >
        <EyeIcon open={visibility === 'public'} />
      </button>
      <p className="field-hint">{contactVisibilityHelp(visibility)}</p>
    </div>
  )
}
