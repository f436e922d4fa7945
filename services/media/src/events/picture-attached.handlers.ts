import type { EventHandlers } from '@marketplace/service-kit'
import type { AttachPicture } from '../uploads/attach-picture'

/**
 * The events that name a picture in use: a post's jobPicture (jobs) and a worker profile's
 * profilePicture (people; the only place a profile picture is kept). Each carries the key as
 * the owning service stored it, after checking it lies under the caller's own prefix.
 */
export function pictureAttachedHandlers(attachPicture: AttachPicture): EventHandlers {
  return {
    'post.created': ({ data }) => attachPicture(data.jobPicture),
    'post.updated': ({ data }) => attachPicture(data.jobPicture),
    'worker-profile.updated': ({ data }) => attachPicture(data.profilePicture),
  }
}
