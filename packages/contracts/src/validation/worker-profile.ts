import { Type, type Static } from '@sinclair/typebox'
import {
  WORKER_AVAILABILITY_MAX_LENGTH,
  WORKER_CONTACT_MAX_LENGTH,
  WORKER_CONTACTS_MAX_COUNT,
  WORKER_INFOS_MAX_LENGTH,
  WORKER_LOCATION_MAX_LENGTH,
  WORKER_PAYMENT_TYPE_MAX_LENGTH,
  WORKER_SKILL_MAX_LENGTH,
  WORKER_SKILLS_MAX_COUNT,
  WORKER_TITLE_MAX_LENGTH,
} from '../marketplace/limits'
import {
  ContactVisibilitySchema,
  DEFAULT_CONTACT_VISIBILITY,
  isContactVisibility,
  type ContactVisibility,
} from '../marketplace/workers'
import { Messages } from './messages'
import { exceeds, isBlank } from './text'

/** Skills and contacts are comma-separated, trimmed, with empty entries dropped. */
export function parseCommaList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

/** The inverse, to prefill the edit form: ["a", "b"] → "a, b". */
export function formatCommaList(entries: readonly string[]): string {
  return entries.join(', ')
}

/** Helper text under the visibility eye. */
export function contactVisibilityHelp(visibility: ContactVisibility): string {
  return visibility === 'public'
    ? Messages.workerProfile.publicContactsHelp
    : Messages.workerProfile.hiddenContactsHelp
}

/**
 * Visibility is one setting for all contacts; the stored profile repeats it on
 * each contact, so the form reads it back from the first one.
 */
export function contactVisibilityOf(
  contacts: readonly { visibility?: string }[] | null | undefined,
): ContactVisibility {
  const first = contacts?.[0]?.visibility
  return isContactVisibility(first) ? first : DEFAULT_CONTACT_VISIBILITY
}

/** Body of PUT /api/users/{userId}/worker-profile. Loose; the rules below check. */
export const WorkerProfilePayloadSchema = Type.Object({
  title: Type.String(),
  skills: Type.Array(Type.String()),
  availability: Type.String(),
  paymentType: Type.String(),
  location: Type.String(),
  infos: Type.Optional(Type.String()),
  contacts: Type.Optional(
    Type.Array(Type.Object({ value: Type.String(), visibility: ContactVisibilitySchema })),
  ),
  isOnline: Type.Optional(Type.Boolean()),
  profilePicture: Type.Optional(Type.String()),
})
export type WorkerProfilePayload = Static<typeof WorkerProfilePayloadSchema>

/** The create/edit modal: skills and contacts as typed, one visibility. */
export interface WorkerProfileForm {
  title: string
  skills: string
  availability: string
  paymentType: string
  location: string
  infos?: string
  contacts?: string
  contactVisibility: ContactVisibility
}

/** Form → payload: texts trimmed, lists parsed, the one visibility set on every contact. */
export function buildWorkerProfilePayload(form: WorkerProfileForm): WorkerProfilePayload {
  return {
    title: form.title.trim(),
    skills: parseCommaList(form.skills),
    availability: form.availability.trim(),
    paymentType: form.paymentType.trim(),
    location: form.location.trim(),
    infos: (form.infos ?? '').trim(),
    contacts: parseCommaList(form.contacts).map((value) => ({
      value,
      visibility: form.contactVisibility,
    })),
  }
}

const BOUNDED_TEXTS = [
  ['title', 'Title', WORKER_TITLE_MAX_LENGTH],
  ['availability', 'Availability', WORKER_AVAILABILITY_MAX_LENGTH],
  ['paymentType', 'Payment type', WORKER_PAYMENT_TYPE_MAX_LENGTH],
  ['location', 'Location', WORKER_LOCATION_MAX_LENGTH],
  ['infos', 'Additional information', WORKER_INFOS_MAX_LENGTH],
] as const

/**
 * First failed rule's message or null. Required: title, skills, availability,
 * paymentType, location, checked in the form's order; infos and contacts are optional.
 * paymentType and location are free text: the worker's own words, like a custom location
 * on the feed. Lengths and counts are bounded (see limits.ts).
 */
export function validateWorkerProfilePayload(payload: WorkerProfilePayload): string | null {
  const m = Messages.workerProfile
  if (isBlank(payload.title)) return m.titleRequired
  if (payload.skills.every((skill) => isBlank(skill))) return m.skillsRequired
  if (isBlank(payload.availability)) return m.availabilityRequired
  if (isBlank(payload.paymentType)) return m.paymentTypeRequired
  if (isBlank(payload.location)) return m.locationRequired
  for (const [field, label, max] of BOUNDED_TEXTS) {
    if (exceeds(payload[field], max)) return Messages.tooLong(label, max)
  }
  if (payload.skills.length > WORKER_SKILLS_MAX_COUNT) {
    return m.tooManySkills(WORKER_SKILLS_MAX_COUNT)
  }
  if (payload.skills.some((skill) => exceeds(skill, WORKER_SKILL_MAX_LENGTH))) {
    return Messages.tooLong('Each skill', WORKER_SKILL_MAX_LENGTH)
  }
  const contacts = payload.contacts ?? []
  if (contacts.length > WORKER_CONTACTS_MAX_COUNT) {
    return m.tooManyContacts(WORKER_CONTACTS_MAX_COUNT)
  }
  if (contacts.some((contact) => exceeds(contact.value, WORKER_CONTACT_MAX_LENGTH))) {
    return Messages.tooLong('Each contact', WORKER_CONTACT_MAX_LENGTH)
  }
  if (!contacts.every((contact) => isContactVisibility(contact.visibility))) {
    return m.invalidContactVisibility
  }
  return null
}

/** The modal's check: the same rules on the payload it will send. */
export function validateWorkerProfileForm(form: WorkerProfileForm): string | null {
  return validateWorkerProfilePayload(buildWorkerProfilePayload(form))
}
