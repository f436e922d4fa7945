import type { JobPost } from '@marketplace/contracts/api'
import { RELIST_INTERVAL_MS } from '@marketplace/contracts/marketplace'
import { seesPrivateFields, type PostDocument } from './post-document'
import { postState } from './post-life'

/**
 * The contact as a viewer may see it. A public contact (displayContact true) shows its method
 * and value to everyone. A private one shows both to the owner and authorized users only:
 * anyone else gets null for the method and the value, and no mask either, because even the
 * mask's shape (an e-mail's, a phone number's) would tell the method. The web shows a blurred
 * "Contact" with the "visible once accepted" tooltip for null, as for a hidden location.
 */
export function contactView(
  post: Pick<PostDocument, 'contact' | 'contactValue' | 'displayContact'>,
  insider: boolean,
): { contact: string | null; contactValue: string | null } {
  if (!post.displayContact && !insider) return { contact: null, contactValue: null }
  const value = post.contactValue ?? ''
  return { contact: post.contact, contactValue: value === '' ? null : value }
}

/**
 * The one place privacy is applied to a post: the location and the contact (method and
 * value) are removed on the server when the owner hid them and the viewer is neither the
 * owner nor authorized (`authorizedUsers`: the post's grants; docs/posts.md).
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
    ...contactView(post, insider),
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
    // The post's life (docs/posts.md), for its owner's My Posts only.
    ...(isOwner && ownerFields(post)),
    createdAt: post.createdAt.toISOString(),
    updatedAt: post.updatedAt.toISOString(),
  }
}

/** What only the owner is told of the post's life: its state, when filled, when relistable. */
function ownerFields(post: PostDocument): Pick<JobPost, 'state' | 'filledAt' | 'relistableAt'> {
  return {
    state: postState(post),
    ...(post.filledAt ? { filledAt: post.filledAt.toISOString() } : {}),
    ...(post.relistedAt
      ? { relistableAt: new Date(post.relistedAt.getTime() + RELIST_INTERVAL_MS).toISOString() }
      : {}),
  }
}
