import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { MailConfigSchema } from '@marketplace/service-kit/mail'

const AuthConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  MailConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'auth' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4001 }),
    /** Base64 or PEM Ed25519 private key; only the auth service signs access tokens. */
    JWT_PRIVATE_KEY: Type.String({ minLength: 1, secret: { productionMinLength: 64 } }),
    ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 30, default: 15 * 60 }),
    /**
     * Secret for the HMACs the service computes: XSRF tokens bound to a session and the
     * stored form of one-time codes. At least 32 characters; rotate it to void them all.
     */
    SESSION_SECRET: Type.String({ minLength: 32, secret: { productionMinLength: 32 } }),
    /** Absolute lifetime of a "Keep me signed in" session, and of one without it. */
    PERSISTENT_SESSION_DAYS: Type.Integer({ minimum: 1, default: 30 }),
    BROWSER_SESSION_HOURS: Type.Integer({ minimum: 1, default: 24 }),
    /**
     * Seconds a spent refresh token still answers the successor it was exchanged for (two
     * tabs renewing at once); presented later, it revokes its family. 0 turns the window off.
     */
    REFRESH_REUSE_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 60, default: 10 }),
    /**
     * Addresses of the proxies in front of the service (the gateway), whose X-Forwarded-For,
     * -Proto and -Host are believed: rate limits key on the browser's address, and the
     * same-origin check and the cookies' Secure flag follow the browser's scheme and host.
     */
    TRUST_PROXY: Type.String({ default: '127.0.0.1,::1' }),
    /** Other origins allowed to renew a session (a Vite dev server), comma-separated. */
    EXTRA_ALLOWED_ORIGINS: Type.String({ default: '' }),
    /** Multiplies every rate limit; the login benchmark raises it, production leaves 1. */
    RATE_LIMIT_MULTIPLIER: Type.Number({ minimum: 1, default: 1 }),
    /**
     * The demo/bootstrap administrator, created at start when both are set. Secrets here carry
     * `secret`: with NODE_ENV=production a known default or a short one stops the start
     * (service-kit's loadConfig).
     */
    ADMIN_EMAIL: Type.Optional(Type.String()),
    ADMIN_PASSWORD: Type.Optional(Type.String({ secret: { productionMinLength: 12 } })),
  }),
])

export type AuthConfig = ReturnType<typeof readConfig>

/** The only place the auth service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(AuthConfigSchema, env)
}
