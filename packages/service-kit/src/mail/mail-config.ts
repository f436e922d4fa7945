import { Type, type Static } from '@sinclair/typebox'

/**
 * SMTP and mail settings. Composed into the service's schema in config.ts, so loadConfig
 * turns the environment's strings into these types ("true"/"false"/"1"/"0" for the boolean,
 * digits for the port) and applies the defaults, which point at the local SMTP sink.
 */
export const MailConfigSchema = Type.Object({
  SMTP_HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  SMTP_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 1025 }),
  /** Implicit TLS from the first byte (port 465); false still upgrades with STARTTLS when offered. */
  SMTP_SECURE: Type.Boolean({ default: false }),
  /** Authentication is used only when a user is set. */
  SMTP_USER: Type.Optional(Type.String()),
  /** Refused in production when a known default or shorter than 12 (config.ts). */
  SMTP_PASSWORD: Type.Optional(Type.String({ secret: { productionMinLength: 12 } })),
  MAIL_FROM: Type.String({ minLength: 1, default: 'Marketplace <no-reply@marketplace.local>' }),
  /** Where the browser reaches the app (the gateway); the links in mails start with it. */
  APP_PUBLIC_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:8080' }),
})
export type MailConfig = Static<typeof MailConfigSchema>
