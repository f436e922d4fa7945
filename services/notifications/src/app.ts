import {
  TOKEN_REVOCATIONS_INDEXES,
  authPlugin,
  createServiceApp,
  createTokenRevocations,
  kafkaPlugin,
  mongoPlugin,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { createMailTransport } from '@marketplace/service-kit/mail'
import type { NotificationsConfig } from './config'
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
import { createRecipients } from './recipients/recipients-repository'
import { supportRoutes } from './support/support-routes'

export async function buildNotificationsApp(config: NotificationsConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, {
    url: config.MONGO_URL,
    indexes: [...notificationIndexes, ...TOKEN_REVOCATIONS_INDEXES],
  })
  const db = app.mongo.db
  const tokenRevocations = createTokenRevocations(db)
  const transport = createMailTransport(config)
  app.addHook('onClose', async () => transport.close())

  // The relay exists only once the Kafka plugin is registered; writes before that are still
  // published by its first sweep.
  let notifyOutbox: (target: OutboxTarget) => void = () => {}
  const notifications = createNotificationsRepository(db, {
    notifyOutbox: (target) => notifyOutbox(target),
  })
  const recipients = createRecipients(db)
  const service = createNotificationsService({
    notifications,
    recipients,
    maxAgeMs: config.NOTICE_MAX_AGE_MS,
  })

  // Token checks for the Socket.IO handshake come from the auth plugin, so it goes first.
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isTokenStillValid: tokenRevocations.isTokenStillValid,
  })
  const live = attachLiveServer(app, { unreadCount: (userId) => service.unreadCount(userId) })

  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [NOTIFICATIONS_COLLECTION],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: notificationsSubscriptions({
      service,
      notifications,
      recipients,
      live,
      mail: createNotificationMailer({
        transport,
        recipients,
        appPublicUrl: config.APP_PUBLIC_URL,
        maxAgeMs: config.MAIL_MAX_AGE_MS,
      }),
      tokenRevocations,
    }),
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  notifyOutbox = (target) => app.events.notifyOutbox(target)

  await app.register(notificationsRoutes, { service, recipients })
  await app.register(supportRoutes, {
    transport,
    supportInbox: config.SUPPORT_INBOX,
    rateLimit: {
      max: config.SUPPORT_RATE_LIMIT_MAX,
      windowMs: config.SUPPORT_RATE_LIMIT_WINDOW_MS,
    },
  })
  return Object.assign(app, { live })
}
