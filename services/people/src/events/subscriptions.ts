import type {
  ConsumerDefinition,
  TokenRevocations,
  RequestActivity,
} from '@marketplace/service-kit'
import type { AccountPurge } from '../deletion/account-purge'
import type { KnownPosts } from '../posts/known-posts'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import type { ProfilesService } from '../profiles/profiles-service'
import type { KnownJobRequests } from '../ratings/known-job-requests'
import type { RatingsService } from '../ratings/ratings-service'
import { peopleStatsSubscription } from '../stats/stats-subscription'
import { userRegisteredHandler } from './user-registered.handler'

/** Every event the people service reacts to (besides the feed's own group), in one place. */
export function peopleSubscriptions(deps: {
  profiles: ProfilesRepository
  profilesService: ProfilesService
  knownPosts: KnownPosts
  /** Requests on posts, for "rate your workers" (who may rate whom). */
  jobRequests: KnownJobRequests
  ratings: RatingsService
  purge: AccountPurge
  tokenRevocations: TokenRevocations
  /** The users' people requests per day, for their stats. */
  activity: RequestActivity
}): ConsumerDefinition[] {
  /**
   * The owner sees the requester's hidden contacts while the request exists as this service
   * knows it, whatever the event at hand says: a deleted request is kept as a marker, so a
   * creation handled after its deletion (a re-driven dead letter, a replay) grants nothing,
   * and repeating either step is harmless.
   */
  async function followContactViewer(data: {
    requestId: string
    ownerId: string
    requesterId: string
  }): Promise<void> {
    const known = await deps.jobRequests.findById(data.requestId)
    const exists = known !== null && !known.deleted
    await deps.profilesService.setContactViewer(
      data.requesterId,
      data.ownerId,
      data.requestId,
      exists,
    )
  }

  return [
    {
      groupId: 'people',
      handlers: {
        'user.registered': userRegisteredHandler(deps.profiles),
        // "Keep my account": auth checked the password (docs/people.md, account deletion).
        'user.deletion-cancelled': async ({ data }) =>
          deps.profilesService.cancelDeletion(data.userId),
        // A moderator's take-down of a person (reports service).
        'report.resolved': async ({ data }) => {
          if (data.targetType === 'person' && data.action === 'take-down') {
            await deps.profilesService.takeDown(data.targetId)
          }
        },
        // The grace period is over (our own purge emitted it): what this service holds goes.
        // Ratings first: those the user gave are taken back from workers' profiles.
        'user.deleted': async ({ data }) => {
          await deps.ratings.removeUser(data.userId)
          await deps.purge.removeUser(data.userId)
        },
        // The requests known for ratings (known-job-requests.ts), and the owner's view of
        // the requester's hidden contacts while the request exists.
        'job-request.created': async (event) => {
          await deps.jobRequests.handlers['job-request.created'](event)
          await followContactViewer(event.data)
        },
        // Only an accepted request may be rated.
        'job-request.decided': deps.jobRequests.handlers['job-request.decided'],
        'job-request.deleted': async (event) => {
          await deps.jobRequests.handlers['job-request.deleted'](event)
          await followContactViewer(event.data)
        },
      },
    },
    // Posts people requests may name: their owner, title and whether they are online.
    { groupId: 'people-posts', handlers: deps.knownPosts.handlers },
    peopleStatsSubscription(deps.activity),
    // A group of its own: a profile event that keeps failing must not hold revocations back
    // on the same partition, and a new group reads the topic from the beginning, so the
    // cut-offs of users revoked before this group existed are known too.
    {
      groupId: 'people-token-revocations',
      handlers: deps.tokenRevocations.handlers,
    },
  ]
}
