import type { ConsumerDefinition, RequestActivity } from '@marketplace/service-kit'

/**
 * Fills the users' people request activity (request-activity.ts) from the service's own
 * events, in a group of its own: a slow or failing count never holds back the `people`
 * group, and a new group reads the topics from the beginning, so the requests still
 * retained by the broker when it first starts are counted too. A people request goes from
 * a post owner (sent) to a worker (received); the worker accepts it.
 */
export function peopleStatsSubscription(activity: RequestActivity): ConsumerDefinition {
  return {
    groupId: 'people-stats',
    handlers: {
      // The day of the fact, not of its handling: a replay lands on the same day.
      'people-request.created': async ({ data, occurredAt }) => {
        const at = new Date(occurredAt)
        await activity.count(data.workerId, 'received', data.requestId, at)
        await activity.count(data.ownerId, 'sent', data.requestId, at)
      },
      // An acceptance undone stays counted on its day (the series says what happened);
      // the totals say where requests stand now.
      'people-request.decided': async ({ data, occurredAt }) => {
        if (data.status !== 'accepted') return
        const at = new Date(occurredAt)
        await activity.count(data.workerId, 'receivedAccepted', data.requestId, at)
        await activity.count(data.ownerId, 'sentAccepted', data.requestId, at)
      },
      // The purge emits it when the grace period ends: the user's history goes too.
      'user.deleted': async ({ data }) => activity.forgetUser(data.userId),
    },
  }
}
