import type {
  JobRequestCreated,
  JobRequestDecided,
  JobRequestTerms,
  ReceivedJobRequest,
  SentJobRequest,
} from '@marketplace/contracts/api'
import type { PostReaders } from '../access/post-readers'
import { isShownToOthers, type PostDocument } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import { toPostView } from '../posts/post-view'
import { displayName, isDeletionPending, type UserDirectory } from '../users/user-directory'
import { agreedOf, offerView, termsView } from './offer-terms'
import type { JobRequestDocument } from './request-document'
import type { RequestsRepository } from './requests-repository'
import type { WorkerStanding } from './worker-standing'

/**
 * The two lists of requests on posts, received and sent. Received requests are read by the post's owner, who sees the
 * requester's card and their own post. Sent requests are read by the requester, who sees the
 * post as `toPostView` allows: hidden fields only once accepted.
 */
export async function receivedRequestsView(
  requests: JobRequestDocument[],
  deps: {
    posts: PostsRepository
    users: UserDirectory
    /** With both, each requester's card carries their rating and accepted requests. */
    standing?: WorkerStanding
    requests?: Pick<RequestsRepository, 'acceptedCounts'>
    hidden?: ReadonlySet<string>
  },
): Promise<ReceivedJobRequest[]> {
  const requesterIds = requests.map((request) => request.requesterId)
  const [posts, users, ratings, completed] = await Promise.all([
    postsById(requests, deps.posts),
    deps.users.find(requesterIds),
    deps.standing?.ratings(requesterIds),
    deps.requests?.acceptedCounts(requesterIds),
  ])
  // A blocked (or blocking) requester's contact values stop being shown (docs/blocking.md).
  const hidden = deps.hidden ?? new Set<string>()
  return requests.flatMap((request): ReceivedJobRequest[] => {
    const requester = users.get(request.requesterId)
    // A requester in a deletion's grace period is hidden until they keep the account.
    if (isDeletionPending(requester)) return []
    const post = posts.get(request.postId)
    const entry: ReceivedJobRequest = {
      _id: request._id,
      status: request.status,
      createdAt: request.createdAt.toISOString(),
      updatedAt: request.updatedAt.toISOString(),
      requester: {
        _id: request.requesterId,
        name: displayName(requester),
        profilePicture: requester?.profilePicture ?? null,
        email: hidden.has(request.requesterId) ? '' : (requester?.email ?? ''),
        isWorker: requester?.isWorker ?? false,
        title: requester?.title ?? '',
        skills: requester?.skills ?? [],
        ...(ratings ? { rating: ratings.get(request.requesterId) } : {}),
        ...(completed ? { completedRequests: completed.get(request.requesterId) ?? 0 } : {}),
      },
      post: {
        _id: request.postId,
        title: post?.title || request.postTitle || 'Unknown Job',
        location: post?.location || 'No location',
        salary: post?.salary ?? '',
        picture: post?.jobPicture ?? null,
        // The post's state as its owner toggles it.
        status: post?.isOnline && !post.takenDown ? 'online' : 'offline',
      },
      // The owner is one of the request's two sides: its terms are theirs to see.
      ...termsView(request),
    }
    return [entry]
  })
}

export async function sentRequestsView(
  requests: JobRequestDocument[],
  requesterId: string,
  deps: {
    posts: PostsRepository
    users: UserDirectory
    readers: PostReaders
    /** People the requester blocked or was blocked by: what their acceptance showed goes. */
    hidden?: ReadonlySet<string>
  },
): Promise<SentJobRequest[]> {
  const posts = await postsById(requests, deps.posts)
  const access = await deps.readers.requesterAccess(requesterId, requests)
  const owners = await deps.users.find(requests.map((request) => request.ownerId))
  return requests.flatMap((request): SentJobRequest[] => {
    const post = posts.get(request.postId)
    // Entries without a post are dropped, and so are posts gone from others'
    // sight (taken down, or their owner in a deletion's grace period).
    if (!post || !isShownToOthers(post)) return []
    const blocked = deps.hidden?.has(post.userID) === true
    const view = toPostView(post, requesterId, blocked ? [] : access.get(post._id))
    return [
      {
        _id: request._id,
        status: request.status,
        createdAt: request.createdAt.toISOString(),
        post: {
          _id: view._id,
          title: view.title,
          location: view.location,
          salary: view.salary,
          jobPicture: view.jobPicture,
          displayLocation: view.displayLocation,
          displayContact: view.displayContact,
          contact: view.contact,
          contactValue: view.contactValue ?? null,
          infos: view.infos,
          owner: { _id: post.userID, name: displayName(owners.get(post.userID)) },
        },
        // Read by the requester alone (assertSelf): their own offer and its counter.
        ...termsView(request),
      },
    ]
  })
}

/** What POST /api/jobs/requests answers the requester. */
export function requestCreatedView(request: JobRequestDocument): JobRequestCreated {
  return {
    _id: request._id,
    postId: request.postId,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    // Only with an offer: without one, the answer is the one clients always read.
    ...(request.offer ? { offer: offerView(request.offer) } : {}),
  }
}

/** What PATCH /api/jobs/requests/{requestId} answers the post's owner. */
export function requestDecidedView(request: JobRequestDocument): JobRequestDecided {
  // The decision's answer carries the agreed amount, not the offer (the lists carry that).
  const agreed = agreedOf(request)
  return {
    _id: request._id,
    postId: request.postId,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
    ...(agreed ? { agreed } : {}),
  }
}

/** What the counter-offer routes answer the side that acted. */
export function requestTermsView(request: JobRequestDocument): JobRequestTerms {
  return {
    _id: request._id,
    postId: request.postId,
    status: request.status,
    updatedAt: request.updatedAt.toISOString(),
    offer: null,
    counter: null,
    agreed: null,
    ...termsView(request),
  }
}

async function postsById(requests: JobRequestDocument[], posts: PostsRepository) {
  const found = await posts.findByIds(requests.map((request) => request.postId))
  return new Map<string, PostDocument>(found.map((post) => [post._id, post]))
}
