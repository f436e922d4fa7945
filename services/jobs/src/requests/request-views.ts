import type {
  JobRequestCreated,
  JobRequestDecided,
  ReceivedJobRequest,
  SentJobRequest,
} from '@marketplace/contracts/api'
import type { PostReaders } from '../access/post-readers'
import { isShownToOthers, type PostDocument } from '../posts/post-document'
import type { PostsRepository } from '../posts/posts-repository'
import { toPostView } from '../posts/post-view'
import { displayName, isDeletionPending, type UserDirectory } from '../users/user-directory'
import type { JobRequestDocument } from './request-document'

/**
 * The two lists of requests on posts, received and sent. Received requests are read by the post's owner, who sees the
 * requester's card and their own post. Sent requests are read by the requester, who sees the
 * post as `toPostView` allows: hidden fields only once accepted.
 */
export async function receivedRequestsView(
  requests: JobRequestDocument[],
  deps: { posts: PostsRepository; users: UserDirectory; hidden?: ReadonlySet<string> },
): Promise<ReceivedJobRequest[]> {
  const posts = await postsById(requests, deps.posts)
  const users = await deps.users.find(requests.map((request) => request.requesterId))
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
  }
}

/** What PATCH /api/jobs/requests/{requestId} answers the post's owner. */
export function requestDecidedView(request: JobRequestDocument): JobRequestDecided {
  return { ...requestCreatedView(request), updatedAt: request.updatedAt.toISOString() }
}

async function postsById(requests: JobRequestDocument[], posts: PostsRepository) {
  const found = await posts.findByIds(requests.map((request) => request.postId))
  return new Map<string, PostDocument>(found.map((post) => [post._id, post]))
}
