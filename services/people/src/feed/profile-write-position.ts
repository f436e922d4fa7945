import { recordWrittenPosition } from '@marketplace/service-kit'
import { isListed, type ProfileDocument } from '../profiles/profile-document'
import { profileVersion } from './people-feed'

/**
 * Names a profile this request wrote in its answer (service-kit's write-recorder.ts): the
 * user's id and the profile's `updatedAt`, or its deletion. A change that takes something
 * away from strangers (the worker leaves the feed, or has a contact only insiders see) is
 * marked for everyone: a guest reading right after, on an instance that has not learned it
 * yet, must not be shown what the worker just hid.
 */
export function recordProfileWrite(userId: string, profile: ProfileDocument | null): void {
  const hidesSomething =
    !profile ||
    !isListed(profile) ||
    profile.worker.contacts.some((contact) => contact.visibility !== 'public')
  recordWrittenPosition(
    { kind: 'user', id: userId, version: profileVersion(profile) },
    hidesSomething,
  )
}
