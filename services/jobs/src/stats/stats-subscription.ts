import type { ConsumerDefinition, RequestActivity } from '@marketplace/service-kit'

/**
 * Fills the users' request activity (request-activity.ts) from the service's own request
 * events, in a group of its own: a slow or failing count never holds back the handlers of
 * the `jobs` group, and a new group reads the topics from the beginning, so the requests
 * still retained by the broker when it first starts are counted too.
 */
export function jobsStatsSubscription(activity: RequestActivity): ConsumerDefinition {
  return {
    groupId: 'jobs-stats',
    handlers: {
      // The day of the fact, not of its handling: a replay lands on the same day.
      'job-request.created': async ({ data, occurredAt }) => {
        const at = new Date(occurredAt)
        await activity.count(data.ownerId, 'received', data.requestId, at)
        await activity.count(data.requesterId, 'sent', data.requestId, at)
      },
      // An acceptance undone stays counted on its day (the series says what happened);
      // the totals say where requests stand now.
      'job-request.decided': async ({ data, occurredAt }) => {
        if (data.status !== 'accepted') return
        const at = new Date(occurredAt)
        await activity.count(data.ownerId, 'receivedAccepted', data.requestId, at)
        await activity.count(data.requesterId, 'sentAccepted', data.requestId, at)
      },
      'user.deleted': async ({ data }) => activity.forgetUser(data.userId),
    },
  }
}
