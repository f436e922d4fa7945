import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
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
  }),
])

export type NotificationsConfig = ReturnType<typeof readConfig>

/** The only place the notifications service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(NotificationsConfigSchema, env)
}
