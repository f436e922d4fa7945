import { buildService } from '@marketplace/service-kit'
import { createMailTransport } from '@marketplace/service-kit/mail'
import type { NotificationsConfig } from './config'
import { createMessageNotices } from './conversations/message-notices'
import {
  createMessageNoticesRepository,
  messageNoticeIndexes,
} from './conversations/message-notices-repository'
import { notificationsSubscriptions } from './events/subscriptions'
import { createBlockSets } from '@marketplace/read-models/blocks'
import { attachLiveServer } from './live/live-server'
import { NOTIFICATIONS_COLLECTION } from './notifications/notification-document'
import { createNotificationMailer } from './notifications/notification-mail'
import {
  createNotificationsRepository,
  notificationIndexes,
} from './notifications/notifications-repository'
import { notificationsRoutes } from './notifications/notifications-routes'
import { createNotificationsService } from './notifications/notifications-service'
import { createPresenceRepository, presenceIndexes } from './presence/presence-repository'
import { createPresenceTracker } from './presence/presence-tracker'
import { createPushDevicesRepository } from './push/push-devices-repository'
import { pushRoutes } from './push/push-routes'
import { createPushSender } from './push/push-sender'
import { pushEndpointRules } from './push/push-subscription-input'
import { resolveVapidKeys } from './push/vapid-keys'
import { createRecipients } from './recipients/recipients-repository'
import { createSavedSearches } from './saved-searches/saved-searches-module'
import { savedSearchIndexes } from './saved-searches/saved-searches-repository'
import {
  savedSearchUnsubscribeRoutes,
  savedSearchesRoutes,
} from './saved-searches/saved-searches-routes'
import { supportWindowIndexes } from './support/support-rate-limit'
import { supportRoutes } from './support/support-routes'

/** Devices a user's pushes go to; past it, the oldest subscription goes (docs/notifications.md). */
const MAX_PUSH_DEVICES = 10

/**
 * Notifications stored from events, mailed, pushed live over Socket.IO and by Web Push to
 * the recipient's devices; conversations'
 * messages pushed live and told when away; support mail.
 */
export function buildNotificationsApp(config: NotificationsConfig) {
  return buildService(config, {
    database: {
      indexes: [
        ...notificationIndexes,
        ...messageNoticeIndexes,
        ...presenceIndexes,
        ...supportWindowIndexes,
        ...savedSearchIndexes,
      ],
      outbox: [NOTIFICATIONS_COLLECTION],
    },
    tokenRevocations: true,
    async compose({ app, db, notifyOutbox, tokenRevocations }) {
      const transport = createMailTransport(config, { metrics: app.metrics })
      const notifications = createNotificationsRepository(db, { notifyOutbox })
      const recipients = createRecipients(db)
      const pushDevices = createPushDevicesRepository(db)
      const vapid = await resolveVapidKeys(db, config)
      // Who blocked whom (people's user.blocked and user.unblocked, docs/blocking.md).
      const blocks = createBlockSets(db)
      const service = createNotificationsService({
        notifications,
        recipients,
        maxAgeMs: config.NOTICE_MAX_AGE_MS,
        isBlockedBetween: blocks.between,
      })
      // Saved searches and their alerts (docs/saved-searches.md).
      const savedSearches = await createSavedSearches({
        db,
        service,
        recipients,
        transport,
        isBlockedBetween: blocks.between,
        appPublicUrl: config.APP_PUBLIC_URL,
        secret: config.SAVED_SEARCH_LINK_SECRET,
        mailMaxAgeMs: config.MAIL_MAX_AGE_MS,
        digestSweepMs: config.DIGEST_SWEEP_MS,
        logger: app.log.child({ component: 'saved-searches' }),
      })
      const stopDigestSweep = savedSearches.startDigestSweep()
      const presence = createPresenceTracker({
        repository: createPresenceRepository(db),
        heartbeatMs: config.PRESENCE_HEARTBEAT_MS,
        ttlMs: config.PRESENCE_TTL_MS,
        logger: app.log,
      })
      // Alive for the other instances before any socket of this one counts.
      await presence.start()
      // Handshakes are checked with the kit's token checks, in place before the server listens.
      const live = attachLiveServer(app, {
        unreadCount: (userId) => service.unreadCount(userId),
        presence,
      })
      return {
        subscriptions: [
          // A group of its own: the block pairs, kept in the database for every instance.
          { groupId: 'notifications-blocks', handlers: blocks.handlers },
          ...savedSearches.subscriptions,
          ...notificationsSubscriptions({
            service,
            notifications,
            recipients,
            messageNotices: createMessageNotices({
              repository: createMessageNoticesRepository(db),
              service,
              presence,
            }),
            presence,
            live,
            mail: createNotificationMailer({
              transport,
              recipients,
              appPublicUrl: config.APP_PUBLIC_URL,
              maxAgeMs: config.MAIL_MAX_AGE_MS,
            }),
            pushDevices,
            push: createPushSender({
              devices: pushDevices,
              recipients,
              notifications,
              vapid,
              subject: config.VAPID_SUBJECT,
              timeoutMs: config.PUSH_TIMEOUT_MS,
              ttlSeconds: config.PUSH_TTL_SECONDS,
              maxAgeMs: config.PUSH_MAX_AGE_MS,
              logger: app.log,
            }),
            tokenRevocations,
          }),
        ],
        async routes(app) {
          await app.register(notificationsRoutes, { service, recipients })
          await app.register(pushRoutes, {
            devices: pushDevices,
            publicKey: vapid.publicKey,
            rules: pushEndpointRules(config),
            maxDevices: MAX_PUSH_DEVICES,
          })
          await app.register(savedSearchesRoutes, {
            searches: savedSearches.searches,
            index: savedSearches.index,
          })
          await app.register(savedSearchUnsubscribeRoutes, {
            searches: savedSearches.searches,
            index: savedSearches.index,
            secret: config.SAVED_SEARCH_LINK_SECRET,
          })
          await app.register(supportRoutes, {
            transport,
            supportInbox: config.SUPPORT_INBOX,
            rateLimit: {
              max: config.SUPPORT_RATE_LIMIT_MAX,
              windowMs: config.SUPPORT_RATE_LIMIT_WINDOW_MS,
            },
          })
        },
        async close() {
          stopDigestSweep()
          await presence.stop()
          transport.close()
        },
        expose: { live, presence, savedSearches },
      }
    },
  })
}
