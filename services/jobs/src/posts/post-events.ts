import { newEvent } from '@marketplace/service-kit'
import { publicPointOf, type PostDocument } from './post-document'
import { toPostView } from './post-view'

interface Context {
  actorId: string | null
  requestId?: string
}

/**
 * post.created / post.updated with what a stranger may see: the view for no viewer, so a
 * hidden location is null here exactly as in a guest's response. The contact value never
 * travels, shown or not: the fields are listed one by one, so a new private
 * field of the view does not leak into every consumer's read model.
 */
export function postChangedEvent(
  type: 'post.created' | 'post.updated',
  post: PostDocument,
  context: Context,
) {
  const view = toPostView(post, null)
  return newEvent(type, {
    aggregateId: post._id,
    actorId: context.actorId,
    requestId: context.requestId,
    data: {
      postId: post._id,
      ownerId: post.userID,
      title: view.title,
      location: view.location,
      jobStartEnd: view.jobStartEnd,
      salary: view.salary,
      paymentType: view.paymentType,
      contact: view.contact,
      infos: view.infos,
      displayLocation: view.displayLocation,
      displayContact: view.displayContact,
      jobPicture: view.jobPicture,
      category: view.category,
      // Consumers show "online" as "live": a taken-down post is not, nor one whose owner is
      // in a deletion's grace period, nor a filled one.
      isOnline: view.isOnline && !post.takenDown && post.ownerLeaving !== true && !post.filledAt,
      takenDown: post.takenDown === true,
      expirationDate: view.expirationDate,
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
      ...pointField(post),
    },
  })
}

/** The post's public point (its town's when the location is private), when it has one. */
function pointField(post: PostDocument): { point?: { lat: number; lon: number; town?: true } } {
  const point = publicPointOf(post)
  return point ? { point } : {}
}

export function postDeletedEvent(
  post: Pick<PostDocument, '_id' | 'userID' | 'title'>,
  context: Context,
) {
  return newEvent('post.deleted', {
    aggregateId: post._id,
    actorId: context.actorId,
    requestId: context.requestId,
    data: { postId: post._id, ownerId: post.userID, title: post.title },
  })
}

/** The owner's warning that the post expires soon (the expiry sweep, post-life-service.ts). */
export function postExpiringEvent(
  post: Pick<PostDocument, '_id' | 'userID' | 'title'> & { expirationDate: string },
) {
  return newEvent('post.expiring', {
    aggregateId: post._id,
    actorId: null,
    data: {
      postId: post._id,
      ownerId: post.userID,
      title: post.title,
      expirationDate: post.expirationDate,
    },
  })
}

/** The post closed for good (filled or expired): its pending requesters are told. */
export function postClosedEvent(
  post: Pick<PostDocument, '_id' | 'userID' | 'title'>,
  reason: 'filled' | 'expired',
  pendingRequesterIds: string[],
  context: Context,
) {
  return newEvent('post.closed', {
    aggregateId: post._id,
    actorId: context.actorId,
    requestId: context.requestId,
    data: {
      postId: post._id,
      ownerId: post.userID,
      title: post.title,
      reason,
      pendingRequesterIds,
    },
  })
}
