import { buildService } from '@marketplace/service-kit'
import { createMailTransport } from '@marketplace/service-kit/mail'
import type { NotificationsConfig } from './config'
import { createMessageNotices } from './conversations/message-notices'
import {
  createMessageNoticesRepository,
  messageNoticeIndexes,
} from './conversations/message-notices-repository'
import { notificationsSubscriptions } from './events/subscriptions'
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
import { createRecipients } from './recipients/recipients-repository'
import { supportWindowIndexes } from './support/support-rate-limit'
import { supportRoutes } from './support/support-routes'

/**
 * Notifications stored from events, mailed, and pushed live over Socket.IO; conversations'
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
      ],
      outbox: [NOTIFICATIONS_COLLECTION],
    },
    tokenRevocations: true,
    async compose({ app, db, notifyOutbox, tokenRevocations }) {
      const transport = createMailTransport(config)
      const notifications = createNotificationsRepository(db, { notifyOutbox })
      const recipients = createRecipients(db)
      const service = createNotificationsService({
        notifications,
        recipients,
        maxAgeMs: config.NOTICE_MAX_AGE_MS,
      })
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
        subscriptions: notificationsSubscriptions({
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
          tokenRevocations,
        }),
        async routes(app) {
          await app.register(notificationsRoutes, { service, recipients })
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
          await presence.stop()
          transport.close()
        },
        expose: { live, presence },
      }
    },
  })
}
