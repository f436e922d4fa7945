import type { Db } from 'mongodb'
import type { FastifyBaseLogger } from 'fastify'
import type { ConsumerDefinition } from '@marketplace/service-kit'
import type { MailTransport } from '@marketplace/service-kit/mail'
import type { NotificationsService } from '../notifications/notifications-service'
import type { Recipients } from '../recipients/recipients-repository'
import { scheduleDigestSweep } from './digest-sweep'
import { createPlaces, type Places } from './places'
import { createSavedSearchIndex } from './saved-search-index'
import { createSavedSearchMailer } from './saved-search-mail'
import { createSavedSearchMatcher } from './saved-search-matcher'
import { createSavedSearchesRepository } from './saved-searches-repository'

/**
 * Saved searches and their alerts, put together for app.ts: the repository, the in-memory
 * index (loaded before the groups consume), the matcher's and the mailer's consumer groups,
 * and the digest sweep.
 */
export async function createSavedSearches(deps: {
  db: Db
  service: NotificationsService
  recipients: Recipients
  transport: MailTransport
  isBlockedBetween: (userId: string, otherId: string) => Promise<boolean>
  appPublicUrl: string
  secret: string
  mailMaxAgeMs: number
  digestSweepMs: number
  logger: FastifyBaseLogger
  /** The gazetteer's places (a test may give its own). */
  places?: Places
}) {
  const searches = createSavedSearchesRepository(deps.db)
  const places = deps.places ?? createPlaces()
  const index = createSavedSearchIndex({ places })
  const matcher = createSavedSearchMatcher({
    index,
    searches,
    service: deps.service,
    isBlockedBetween: deps.isBlockedBetween,
    distanceOf: places.distanceOf,
  })
  await matcher.load()
  const mailer = createSavedSearchMailer({
    transport: deps.transport,
    recipients: deps.recipients,
    searches,
    appPublicUrl: deps.appPublicUrl,
    secret: deps.secret,
    maxAgeMs: deps.mailMaxAgeMs,
  })
  const subscriptions: ConsumerDefinition[] = [
    // New and relisted posts against the saved searches: its own group, so matching never
    // delays the notices of requests and messages. No ledger: a notice's id is its search's
    // and post's, so a redelivered event stores nothing twice. A new group starts at the end:
    // posts published before alerts existed are not news.
    {
      groupId: 'notifications-saved-searches',
      useLedger: false,
      fromBeginning: false,
      handlers: {
        'post.created': async (event) => {
          await matcher.postPublished(event)
        },
        'post.updated': async (event) => {
          await matcher.postPublished(event)
        },
        'user.deleted': async ({ data }) => searches.deleteOfUser(data.userId),
      },
    },
    // Each stored saved-search notice mailed once (with the ledger), as its search says.
    {
      groupId: 'notifications-saved-search-mail',
      fromBeginning: false,
      handlers: {
        'notification.created': async ({ data }) => {
          if (data.kind === 'saved-search') await mailer.notificationStored(data)
        },
      },
    },
  ]
  return {
    searches,
    index,
    matcher,
    mailer,
    subscriptions,
    startDigestSweep: () =>
      scheduleDigestSweep(
        { searches, mailer, catchUp: matcher.catchUp },
        deps.digestSweepMs,
        deps.logger,
      ),
  }
}
