import type { AccountDeletion, PersonSelfView, PersonView } from '@marketplace/contracts/api'
import { Messages, ageFromDateOfBirth } from '@marketplace/contracts/validation'
import { ratingSummary } from '../ratings/rating-views'
import {
  fullName,
  seesHiddenContacts,
  type ProfileDocument,
  type WorkerContact,
} from './profile-document'

/**
 * A person as anyone else sees them (docs/people.md "What a stranger
 * sees"): names, age (never the date of birth), the public worker profile and the worker's
 * rating (docs/ratings-and-stats.md). Never the e-mail, the phone number, the date of birth,
 * pending deletion or who may see the hidden contacts; hidden contacts only for the viewers
 * `seesHiddenContacts` admits.
 */
export function toPersonView(
  profile: ProfileDocument,
  viewerId: string | null,
  now = new Date(),
): PersonView {
  // A profile a moderator took down is shown to its owner only (content removal).
  const hidden = !!profile.takenDownAt && viewerId !== profile._id
  const worker = hidden ? null : profile.worker
  const contacts: WorkerContact[] = worker
    ? seesHiddenContacts(profile, viewerId)
      ? worker.contacts
      : worker.contacts.filter((contact) => contact.visibility === 'public')
    : []
  return {
    _id: profile._id,
    firstName: profile.firstName,
    lastName: profile.lastName,
    name: fullName(profile),
    age: ageFromDateOfBirth(profile.dateOfBirth, now),
    isWorker: profile.isWorker && !hidden,
    title: worker?.title ?? '',
    skills: worker?.skills ?? [],
    availability: worker?.availability ?? '',
    paymentType: worker?.paymentType ?? '',
    location: worker?.location ?? '',
    infos: worker?.infos ?? '',
    contacts,
    profilePicture: worker?.profilePicture ?? null,
    isOnline: worker ? worker.isOnline !== false : false,
    category: worker?.category ?? null,
    rating: ratingSummary(profile),
  }
}

/**
 * The user's own profile (GET /api/users/{own id}): the account fields, the whole worker
 * profile with every contact, and the deletion date while the grace period runs.
 */
export function toSelfView(profile: ProfileDocument, now = new Date()): PersonSelfView {
  return {
    ...toPersonView(profile, profile._id, now),
    email: profile.email,
    phoneNumber: profile.phoneNumber,
    dateOfBirth: profile.dateOfBirth,
    interest: profile.interest ?? null,
    emailPreferences: profile.emailPreferences,
    ...(profile.homePlace ? { homePlace: profile.homePlace } : {}),
    createdAt: profile.createdAt.toISOString(),
    deletion: profile.deletion ? { purgeAfter: profile.deletion.purgeAfter.toISOString() } : null,
  }
}

/** DELETE /api/users/{id}: the grace period's end. */
export function toAccountDeletion(profile: ProfileDocument): AccountDeletion {
  return {
    message: Messages.account.deleted,
    purgeAfter: profile.deletion?.purgeAfter.toISOString() ?? null,
  }
}
