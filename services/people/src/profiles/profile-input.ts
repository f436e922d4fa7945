import { Value } from '@sinclair/typebox/value'
import { UPLOAD_KEY_PREFIXES } from '@marketplace/contracts/marketplace'
import {
  AccountUpdatePayloadSchema,
  WorkerProfilePayloadSchema,
  normalizePhoneNumber,
  validateAccountUpdate,
  validateWorkerProfilePayload,
  type AccountUpdatePayload,
} from '@marketplace/contracts/validation'
import { BadRequestError } from '@marketplace/service-kit'
import type { WorkerProfile } from './profile-document'

/** PUT /api/users/{id}: names and phone with the sign-up rules; e-mail is never editable. */
export function readAccountUpdate(body: unknown): AccountUpdatePayload {
  if (!Value.Check(AccountUpdatePayloadSchema, body)) {
    throw new BadRequestError(
      'Send firstName, lastName and phoneNumber (the e-mail cannot be changed)',
      'INVALID_ACCOUNT_UPDATE',
    )
  }
  const update = {
    firstName: body.firstName.trim(),
    // "Ann  Smith" typed with two spaces is the same last name as "Ann Smith".
    lastName: body.lastName.trim().replace(/\s+/g, ' '),
    phoneNumber: body.phoneNumber.trim(),
  }
  const problem = validateAccountUpdate(update)
  if (problem) throw new BadRequestError(problem, 'INVALID_ACCOUNT_UPDATE')
  return { ...update, phoneNumber: normalizePhoneNumber(update.phoneNumber) ?? update.phoneNumber }
}

/** The fields PUT /api/users/{userId}/worker-profile sets; category and words are derived. */
export type WorkerProfileFields = Omit<WorkerProfile, 'category' | 'searchWords'>

/**
 * PUT /api/users/{userId}/worker-profile: the shared rules (required title,
 * skills, availability, payment type and location; bounded lengths), lists trimmed with empty
 * entries dropped, and a profile picture only under the user's own userImages/{userId}/ (a
 * key somewhere else would show another user's upload).
 */
export function readWorkerProfile(
  body: unknown,
  userId: string,
  current: WorkerProfile | null | undefined,
): WorkerProfileFields {
  if (!Value.Check(WorkerProfilePayloadSchema, body)) {
    throw new BadRequestError(
      'Send title, skills (a list), availability, paymentType and location as text; contacts as a list of {value, visibility}',
      'INVALID_WORKER_PROFILE',
    )
  }
  const payload = {
    title: body.title.trim(),
    skills: body.skills.map((skill) => skill.trim()).filter((skill) => skill !== ''),
    availability: body.availability.trim(),
    paymentType: body.paymentType.trim(),
    location: body.location.trim(),
    infos: (body.infos ?? '').trim(),
    contacts: (body.contacts ?? [])
      .map((contact) => ({ value: contact.value.trim(), visibility: contact.visibility }))
      .filter((contact) => contact.value !== ''),
  }
  const problem = validateWorkerProfilePayload(payload)
  if (problem) throw new BadRequestError(problem, 'INVALID_WORKER_PROFILE')

  let profilePicture = current?.profilePicture ?? null
  if (body.profilePicture !== undefined) {
    const key = body.profilePicture.trim()
    const prefix = `${UPLOAD_KEY_PREFIXES.user}${userId}/`
    if (key !== '' && (!key.startsWith(prefix) || key.includes('..') || key.length > 300)) {
      throw new BadRequestError(
        `The profile picture must be one of your uploads (a key under ${prefix})`,
        'INVALID_PROFILE_PICTURE',
      )
    }
    profilePicture = key === '' ? null : key
  }
  return {
    ...payload,
    profilePicture,
    // A new profile is online unless the worker says otherwise.
    isOnline: body.isOnline ?? current?.isOnline ?? true,
  }
}

/** PATCH /api/users/{userId}/worker-status {isOnline}. */
export function readWorkerStatus(body: unknown): boolean {
  const isOnline = (body as { isOnline?: unknown } | null)?.isOnline
  if (typeof isOnline !== 'boolean') {
    throw new BadRequestError('isOnline must be true or false', 'INVALID_WORKER_STATUS')
  }
  return isOnline
}
