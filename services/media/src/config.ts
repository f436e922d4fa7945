import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  ConfigError,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'

const HttpUrl = Type.String({ pattern: '^https?://[^\\s/?#]+$' })

// The database holds upload bookkeeping only (quotas, uploads not yet attached); Kafka brings
// user.deleted and the attachments of pictures to posts and profiles.
const MediaConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'media' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4007 }),
    /** Where this service reaches S3 (inside a cluster: the in-cluster address). */
    S3_ENDPOINT: HttpUrl,
    /**
     * Where the browser reaches S3. Pre-signed addresses are signed for this host (the Host
     * header is part of the signature), so it cannot be rewritten after signing.
     */
    S3_PUBLIC_URL: HttpUrl,
    S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
    S3_ACCESS_KEY: Type.String({ minLength: 1 }),
    S3_SECRET_KEY: Type.String({ minLength: 1, secret: { productionMinLength: 16 } }),
    /** S3's bucket naming rules (3 to 63 lower-case letters, digits, dots and hyphens). */
    S3_BUCKET: Type.String({
      pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
      default: 'marketplace-media',
    }),
    /** MinIO without a domain setting only answers path-style addresses (host/bucket/key). */
    S3_FORCE_PATH_STYLE: Type.Boolean({ default: true }),
    /** Lifetime of a pre-signed upload address: long enough to send 5 MB, no longer. */
    UPLOAD_URL_TTL_SECONDS: Type.Integer({ minimum: 10, maximum: 3600, default: 300 }),
    /** Upload slots one user may ask for per UTC day, both kinds together. */
    UPLOADS_PER_DAY: Type.Integer({ minimum: 1, default: 100 }),
    /**
     * POST /api/upload/complete calls one user may make per minute (per instance): each new
     * picture is decoded and encoded nine times, so one user must not keep the CPU busy.
     */
    UPLOAD_COMPLETES_PER_MINUTE: Type.Integer({ minimum: 1, default: 20 }),
    /** An upload attached to no post and no profile this long after its slot is removed. */
    UNATTACHED_UPLOAD_MAX_AGE_HOURS: Type.Integer({ minimum: 1, default: 24 }),
    /** How often each instance looks for such uploads. */
    UPLOAD_SWEEP_INTERVAL_SECONDS: Type.Integer({ minimum: 1, default: 600 }),
    /** Origins of the web app, comma-separated: the bucket's CORS rules allow their PUTs. */
    APP_ORIGINS: Type.String({ default: 'http://127.0.0.1:8080,http://localhost:8080' }),
  }),
])

export type MediaConfig = ReturnType<typeof readConfig>

/** The only place the media service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  const raw = loadConfig(MediaConfigSchema, env)
  return { ...raw, appOrigins: parseOrigins(raw.APP_ORIGINS) }
}

/**
 * A browser's Origin header is scheme://host[:port] and nothing else, and CORS compares it
 * as a string: a trailing slash or a path here would never match, so it is refused at start.
 */
export function parseOrigins(value: string): string[] {
  const origins = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const invalid = origins.filter((origin) => {
    try {
      return new URL(origin).origin !== origin
    } catch {
      return true
    }
  })
  if (origins.length === 0 || invalid.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  APP_ORIGINS: give one or more origins such as https://app.example.com, comma-separated${
        invalid.length > 0 ? ` (not an origin: ${invalid.join(', ')})` : ''
      }`,
    )
  }
  return origins
}
