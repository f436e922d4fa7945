import type {
  ConsumerDefinition,
  TokenRevocations,
  RequestActivity,
} from '@marketplace/service-kit'
import type { PostsService } from '../posts/posts-service'
import type { RequestsService } from '../requests/requests-service'
import { jobsStatsSubscription } from '../stats/stats-subscription'
import type { UserDirectory } from '../users/user-directory'

/** Every event the jobs service reacts to (besides the feed index's own group), in one place. */
export function jobsSubscriptions(deps: {
  posts: PostsService
  requests: RequestsService
  users: UserDirectory
  tokenRevocations: TokenRevocations
  /** The users' requests per day, for their stats. */
  activity: RequestActivity
}): ConsumerDefinition[] {
  return [
    {
      groupId: 'jobs',
      handlers: {
        // A moderator's take-down (reports service).
        'report.resolved': async (event) => {
          if (event.data.targetType === 'post' && event.data.action === 'take-down') {
            await deps.posts.takeDown(event.data.targetId)
          }
        },
        // The grace period ended: the user's posts, and every request by or to them, go.
        'user.deleted': async (event) => {
          await deps.requests.deleteAllOf(event.data.userId)
          await deps.posts.deleteAllOf(event.data.userId)
        },
        // A worker the owner asked for this post accepted: they may see its hidden fields.
        'people-request.decided': async (event) =>
          deps.posts.setInvitee(
            event.data.postId,
            event.data.ownerId,
            event.data.workerId,
            event.data.status === 'accepted',
          ),
        'people-request.deleted': async (event) =>
          deps.posts.setInvitee(event.data.postId, event.data.ownerId, event.data.workerId, false),
      },
    },
    jobsStatsSubscription(deps.activity),
    // Its own group, as in every service: revocations must not wait behind a failing handler.
    { groupId: 'jobs-token-revocations', handlers: deps.tokenRevocations.handlers },
    // Requesters' names, pictures and worker status, from identity and people events; a
    // deletion's grace period hides the user's posts until it ends or is cancelled.
    {
      groupId: 'jobs-users',
      handlers: {
        ...deps.users.handlers,
        'user.deletion-requested': async (event) => {
          await deps.users.handlers['user.deletion-requested']?.(event)
          await deps.posts.followOwnerDeletion(event.data.userId)
        },
        'user.deletion-cancelled': async (event) => {
          await deps.users.handlers['user.deletion-cancelled']?.(event)
          await deps.posts.followOwnerDeletion(event.data.userId)
        },
      },
    },
  ]
}
