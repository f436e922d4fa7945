import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  ConfigError,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { MailConfigSchema } from '@marketplace/service-kit/mail'

const NotificationsConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  MailConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'notifications' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4006 }),
    /**
     * Events older than this make no notification, and notifications older than the mail
     * window are not mailed: a new consumer group first reads the topics' history, and
     * nobody wants last month's requests announced today (docs/notifications.md).
     */
    NOTICE_MAX_AGE_MS: Type.Integer({ minimum: 1000, default: 24 * 60 * 60 * 1000 }),
    MAIL_MAX_AGE_MS: Type.Integer({ minimum: 1000, default: 60 * 60 * 1000 }),
    /** Where help-and-support and contact messages are delivered (reply-to: the sender). */
    SUPPORT_INBOX: Type.String({ minLength: 3, default: 'support@marketplace.local' }),
    /** Support messages one address (IP) may send per window. */
    SUPPORT_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 5 }),
    SUPPORT_RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 15 * 60 * 1000 }),
    /**
     * The gateway's address(es), whose X-Forwarded-For names the client (the support form's
     * limit keys on it); from any other peer the header is ignored. Addresses or CIDR ranges,
     * comma-separated (Fastify's trustProxy).
     */
    TRUST_PROXY: Type.String({ default: '127.0.0.1,::1' }),
    /**
     * Presence across instances (docs/notifications.md, "Presence"): each instance proves it
     * is alive this often, and its users' sockets count as open until its last proof is this
     * old (a crashed instance's users then count as away).
     */
    PRESENCE_HEARTBEAT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
    PRESENCE_TTL_MS: Type.Integer({ minimum: 300, default: 30_000 }),
    /**
     * Web Push (docs/notifications.md, "Mobile Notifications"): the VAPID pair, base64url as
     * `web-push generate-vapid-keys` prints it. Both or neither: unset (local dev), a pair is
     * generated once and kept in this service's database, so every instance signs alike.
     */
    VAPID_PUBLIC_KEY: Type.Optional(Type.String({ minLength: 1 })),
    VAPID_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 1 })),
    /** Who push services contact about our pushes (RFC 8292 `sub`): mailto: or https:. */
    VAPID_SUBJECT: Type.String({
      pattern: '^(mailto:|https://)\\S+$',
      default: 'mailto:support@marketplace.local',
    }),
    /**
     * The push services a subscription may point at, host names or `.suffix`es. The endpoint
     * is a URL this service POSTs to, so any other host is refused (no requests to internal
     * addresses on a client's say-so). These are Chrome's and every Chromium's (FCM),
     * Firefox's, Edge's (WNS) and Safari's (APNs).
     */
    PUSH_SERVICE_HOSTS: Type.String({
      default:
        'fcm.googleapis.com,updates.push.services.mozilla.com,.notify.windows.com,.push.apple.com',
    }),
    /** Tests only: also accept http:// endpoints on the loopback address (a local push service). */
    PUSH_ALLOW_LOOPBACK_HTTP: Type.Boolean({ default: false }),
    /** A push service slower than this is given up on (logged; the pipeline moves on). */
    PUSH_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
    /** A notification older than this is not pushed any more (a replay, a long outage). */
    PUSH_MAX_AGE_MS: Type.Integer({ minimum: 1000, default: 60 * 60 * 1000 }),
    /** How long a push service keeps a push for a device that is offline (RFC 8030 TTL). */
    PUSH_TTL_SECONDS: Type.Integer({ minimum: 0, default: 24 * 60 * 60 }),
    /**
     * Signs saved searches' one-click unsubscribe links (docs/saved-searches.md). The same on
     * every instance; changing it breaks the links of every e-mail already sent.
     */
    SAVED_SEARCH_LINK_SECRET: Type.String({
      minLength: 32,
      default: 'marketplace-local-saved-search-link-secret-0123456789',
      secret: { productionMinLength: 32 },
    }),
    /** How often each instance looks for daily digests that are due. */
    DIGEST_SWEEP_MS: Type.Integer({ minimum: 100, default: 60_000 }),
  }),
])

export type NotificationsConfig = ReturnType<typeof readConfig>

/** The only place the notifications service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(NotificationsConfigSchema, env)
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither')
  }
  return config
}
