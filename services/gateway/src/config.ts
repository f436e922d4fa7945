import { isIP } from 'node:net'
import path from 'node:path'
import { Type } from '@sinclair/typebox'
import {
  ConfigError,
  KafkaAuthConfigSchema,
  loadConfig,
  type KafkaAuthConfig,
} from '@marketplace/service-kit'
import { UPSTREAM_NAMES, type UpstreamName } from './upstreams'

/** One service's address, or several instances' comma-separated (`http://a:4003,http://b:4003`). */
const HttpUrl = Type.String({ pattern: '^https?://[^\\s/?#]+' })
const HTTP_URL = /^https?:\/\/[^\s/?#]+/

/**
 * The gateway's own schema rather than BaseConfigSchema: it verifies no tokens (each service
 * does), so it must not demand JWT_PUBLIC_KEY.
 */
export const GatewayEnvSchema = Type.Object({
  SERVICE_NAME: Type.String({ minLength: 1, default: 'gateway' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /**
   * Listen with SO_REUSEPORT, so two gateway processes share PORT and the kernel spreads
   * connections over them: one restarting or killed leaves the other serving (start.sh with
   * REPLICAS=2; docs/operations.md). Behind a Kubernetes Service each pod has its own address.
   */
  REUSE_PORT: Type.Boolean({ default: false }),
  /** /metrics on a port of its own, which the Ingress never routes (service-kit config). */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  AUTH_URL: Type.Optional(HttpUrl),
  PEOPLE_URL: Type.Optional(HttpUrl),
  JOBS_URL: Type.Optional(HttpUrl),
  FAVORITES_URL: Type.Optional(HttpUrl),
  REPORTS_URL: Type.Optional(HttpUrl),
  NOTIFICATIONS_URL: Type.Optional(HttpUrl),
  /**
   * Every notifications instance, comma-separated, each by an address that reaches it alone:
   * Socket.IO long-polling must reach the instance holding its session (routes/socket-io).
   * Without it, the instances of NOTIFICATIONS_URL.
   */
  NOTIFICATIONS_INSTANCES: Type.Optional(Type.String({ minLength: 1 })),
  MEDIA_URL: Type.Optional(HttpUrl),
  CONVERSATIONS_URL: Type.Optional(HttpUrl),
  /** The analytics read side (the Analytics screen); the intake stays in the gateway. */
  ANALYTICS_URL: Type.Optional(HttpUrl),
  /** The built SPA; relative paths are taken from the gateway package directory. */
  WEB_DIST_DIR: Type.String({ minLength: 1, default: '../../apps/web/dist' }),
  /** Where pictures are read from (CSP img-src). */
  PUBLIC_BUCKET_URL: Type.String({
    pattern: '^https?://',
    default: 'http://127.0.0.1:9000/marketplace-media',
  }),
  /** Where the browser PUTs pre-signed uploads (CSP connect-src). */
  S3_ENDPOINT: Type.String({ pattern: '^https?://', default: 'http://127.0.0.1:9000' }),
  /** Bytes; the API takes small JSON bodies, pictures go straight to object storage. */
  BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 600 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** Longest wait for an upstream's response headers, and between body chunks. */
  UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** `false`, a hop count, or a comma-separated list of proxy addresses / CIDRs. */
  TRUST_PROXY: Type.String({ default: 'false' }),
  /**
   * Where product analytics go (topic `analytics.events`). Optional: without it the gateway
   * answers the analytics route with 503 and everything else works as before.
   */
  KAFKA_BROKERS: Type.Optional(Type.String({ minLength: 1 })),
  /** The gateway's own Kafka principal (analytics), as every service's (service-kit config). */
  ...KafkaAuthConfigSchema.properties,
  /** Analytics batches per client IP and window, under the general limit. */
  ANALYTICS_RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 60 }),
})

export type TrustProxy = false | number | string[]

export interface GatewayConfig {
  serviceName: string
  host: string
  port: number
  reusePort: boolean
  logLevel: string
  metricsPort?: number
  /**
   * Only the configured ones; the others answer 503. Each service's instances (one or more,
   * spread over by the proxy: lib/instance-pool), without a trailing slash.
   */
  upstreams: Partial<Record<UpstreamName, string[]>>
  /** The notifications instances Socket.IO sessions are spread over and kept on. */
  socketIoInstances: string[]
  webDistDir: string
  publicBucketUrl: string
  s3Endpoint: string
  bodyLimit: number
  rateLimit: { max: number; windowMs: number }
  upstreamTimeoutMs: number
  trustProxy: TrustProxy
  analytics: { kafkaBrokers: string | null; kafkaAuth: KafkaAuthConfig; rateLimitMax: number }
}

const PACKAGE_DIR = path.resolve(__dirname, '..')
const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal'])

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  const raw = loadConfig(GatewayEnvSchema, env)
  const upstreams: Partial<Record<UpstreamName, string[]>> = {}
  for (const name of UPSTREAM_NAMES) {
    const variable = `${name.toUpperCase()}_URL`
    const value = raw[variable as keyof typeof raw] as string | undefined
    if (value) upstreams[name] = urlList(variable, value)
  }
  // The live connection follows every notifications instance it is given; NOTIFICATIONS_URL's
  // when they reach each instance alone (start.sh), NOTIFICATIONS_INSTANCES when that URL is
  // one address in front of them all (a Kubernetes Service).
  const socketIoInstances = raw.NOTIFICATIONS_INSTANCES
    ? urlList('NOTIFICATIONS_INSTANCES', raw.NOTIFICATIONS_INSTANCES)
    : (upstreams.notifications ?? [])
  return {
    serviceName: raw.SERVICE_NAME,
    host: raw.HOST,
    port: raw.PORT,
    reusePort: raw.REUSE_PORT,
    metricsPort: raw.METRICS_PORT,
    logLevel: raw.LOG_LEVEL,
    upstreams,
    socketIoInstances,
    webDistDir: path.resolve(PACKAGE_DIR, raw.WEB_DIST_DIR),
    publicBucketUrl: raw.PUBLIC_BUCKET_URL,
    s3Endpoint: raw.S3_ENDPOINT,
    bodyLimit: raw.BODY_LIMIT,
    rateLimit: { max: raw.RATE_LIMIT_MAX, windowMs: raw.RATE_LIMIT_WINDOW_MS },
    upstreamTimeoutMs: raw.UPSTREAM_TIMEOUT_MS,
    trustProxy: parseTrustProxy(raw.TRUST_PROXY),
    analytics: {
      kafkaBrokers: raw.KAFKA_BROKERS ?? null,
      kafkaAuth: {
        KAFKA_SASL_MECHANISM: raw.KAFKA_SASL_MECHANISM,
        KAFKA_SASL_USERNAME: raw.KAFKA_SASL_USERNAME,
        KAFKA_SASL_PASSWORD: raw.KAFKA_SASL_PASSWORD,
        KAFKA_SSL: raw.KAFKA_SSL,
      },
      rateLimitMax: raw.ANALYTICS_RATE_LIMIT_MAX,
    },
  }
}

/** A comma-separated list of http(s) URLs, each without a trailing slash, at least one. */
function urlList(variable: string, value: string): string[] {
  const urls = value
    .split(',')
    .map((url) => url.trim().replace(/\/+$/, ''))
    .filter(Boolean)
  for (const url of urls) {
    if (!HTTP_URL.test(url)) {
      throw new ConfigError(`Invalid configuration:\n  ${variable}: "${url}" is not an http(s) URL`)
    }
  }
  if (new Set(urls).size !== urls.length) {
    throw new ConfigError(`Invalid configuration:\n  ${variable}: an instance is listed twice`)
  }
  return urls
}

/**
 * `true` is refused on purpose: it trusts every X-Forwarded-For entry, so any client could
 * pick its own address and, with it, a fresh rate-limit bucket.
 */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim().toLowerCase()
  if (text === '' || text === 'false' || text === '0') return false
  if (text === 'true') {
    throw new ConfigError(
      'Invalid configuration:\n  TRUST_PROXY: "true" would let any client choose its own IP; give the number of proxies in front of the gateway or their addresses',
    )
  }
  if (/^\d+$/.test(text)) return Number(text)
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/')
    const family = isIP(address ?? '')
    const validBits =
      bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))
    if (!PROXY_KEYWORDS.has(entry) && (family === 0 || !validBits || extra !== undefined)) {
      throw new ConfigError(
        `Invalid configuration:\n  TRUST_PROXY: "${entry}" is not an IP address, a CIDR range or one of ${[...PROXY_KEYWORDS].join(', ')}`,
      )
    }
  }
  return entries
}
