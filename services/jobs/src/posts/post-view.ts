import type { JobPost } from '@marketplace/contracts/api'
import { maskedContactValue } from '@marketplace/contracts/validation'
import { seesPrivateFields, type PostDocument } from './post-document'

/** The contact value as `viewer` may see it: itself, the method's mask, or nothing. */
export function contactValueView(
  post: Pick<PostDocument, 'contact' | 'contactValue' | 'displayContact'>,
  insider: boolean,
): { contactValue: string | null; contactValueMasked: string | null } {
  const value = post.contactValue ?? ''
  if (value === '') return { contactValue: null, contactValueMasked: null }
  if (post.displayContact || insider) return { contactValue: value, contactValueMasked: null }
  return { contactValue: null, contactValueMasked: maskedContactValue(post.contact) }
}

/**
 * The one place privacy is applied to a post (spec 1 §4, spec 2 §4): the location and the
 * contact value are removed on the server when the owner hid them and the viewer is neither
 * the owner nor authorized (`authorizedUsers`: the post's grants). The contact method stays
 * visible (issue 17 §1: everyone sees the method and the masked value; docs/posts.md).
 * Every route and event goes through here.
 * Its shape is JobPostSchema's (contracts/api/jobs.ts), the one the routes serialize with.
 * `authorizedUsers`: the owner gets the whole list; anyone else gets [their own id] when
 * authorized, else [], so the web app's "owner or in authorizedUsers" check keeps working
 * and nobody learns who else was accepted.
 */
export function toPostView(
  post: PostDocument,
  viewerId: string | null | undefined,
  authorizedUsers: readonly string[] = [],
): JobPost {
  const insider = seesPrivateFields(post, viewerId, authorizedUsers)
  const isOwner = !!viewerId && post.userID === viewerId
  return {
    _id: post._id,
    jobID: post._id,
    userID: post.userID,
    title: post.title,
    location: post.displayLocation || insider ? post.location : null,
    jobStartEnd: post.jobStartEnd,
    salary: post.salary,
    paymentType: post.paymentType,
    contact: post.contact,
    ...contactValueView(post, insider),
    infos: post.infos,
    displayLocation: post.displayLocation,
    displayContact: post.displayContact,
    jobPicture: post.jobPicture,
    category: post.category,
    isOnline: post.isOnline,
    expirationDate: post.expirationDate,
    authorizedUsers: isOwner ? [...authorizedUsers] : insider && viewerId ? [viewerId] : [],
    // Only the owner still sees a taken-down post, and must learn why it stays offline.
    ...(isOwner && post.takenDown ? { takenDown: true as const } : {}),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
  }
}
