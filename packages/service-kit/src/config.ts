import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

/** Settings every service reads; a service adds its own with `extendConfig`. */
export const BaseConfigSchema = Type.Object({
  SERVICE_NAME: Type.String({ minLength: 1 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
  /**
   * Where Prometheus scrapes /metrics, apart from the API's port, so nothing that routes the
   * API (the Ingress, the gateway) can expose it. Unset: /metrics on PORT (local runs, tests).
   */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Base64 or PEM public key that verifies access tokens (EdDSA). */
  JWT_PUBLIC_KEY: Type.String({ minLength: 1 }),
  JWT_ISSUER: Type.String({ default: 'marketplace-auth' }),
  JWT_AUDIENCE: Type.String({ default: 'marketplace' }),
})
export type BaseConfig = Static<typeof BaseConfigSchema>

export const MongoConfigSchema = Type.Object({
  /** A password in it (`mongodb://user:password@host/db`) is a secret (see SecretRule). */
  MONGO_URL: Type.String({
    pattern: '^mongodb(\\+srv)?://',
    secret: { productionMinLength: 12, inUrl: true } satisfies SecretRule,
  }),
  /**
   * Answer every request with `x-mongodb-commands`: how many database commands it sent
   * (plugins/mongodb.ts). For the tests' command budgets; off in production, where the
   * count goes to /metrics only.
   */
  MONGO_COMMANDS_HEADER: Type.Optional(Type.Boolean()),
})

/**
 * How a service authenticates to Kafka: SASL/SCRAM with one principal per service (its own
 * user, so the broker's ACLs let it produce to its own topics only, docs/events.md). Unset: no
 * authentication (the local broker of infra/local, whose listener is PLAINTEXT).
 */
export const KafkaAuthConfigSchema = Type.Object({
  KAFKA_SASL_MECHANISM: Type.Optional(
    Type.Union([Type.Literal('scram-sha-256'), Type.Literal('scram-sha-512')]),
  ),
  KAFKA_SASL_USERNAME: Type.Optional(Type.String({ minLength: 1 })),
  KAFKA_SASL_PASSWORD: Type.Optional(
    Type.String({ minLength: 1, secret: { productionMinLength: 16 } satisfies SecretRule }),
  ),
  /** TLS to the brokers (managed Kafka); the system's CAs. */
  KAFKA_SSL: Type.Boolean({ default: false }),
})
export type KafkaAuthConfig = Static<typeof KafkaAuthConfigSchema>

export const KafkaConfigSchema = Type.Object({
  /** Comma-separated host:port list. */
  KAFKA_BROKERS: Type.String({ minLength: 1 }),
  ...KafkaAuthConfigSchema.properties,
  /**
   * Milliseconds between the outbox relay's sweeps for pending documents. Every write names
   * its document to the relay, which publishes it at once, so a sweep only finds what a
   * crashed process left behind (a restarted process sweeps at start). On FerretDB a sweep
   * scans the whole collection, hence once a minute. Tests set it low.
   */
  OUTBOX_POLL_MS: Type.Integer({ minimum: 10, default: 60_000 }),
  /**
   * How long a consumer's fetch waits on the broker when there is nothing new (a long poll: a
   * new event ends the wait at once, so this is no delay for events). Longer costs less at
   * rest, but leaving a group (a shutdown) and noticing a rebalance wait for the current
   * fetch: 5 s by default; the test harness sets 1 s so each test's shutdown is quick.
   */
  KAFKA_FETCH_WAIT_MS: Type.Optional(
    Type.Integer({ minimum: 100, maximum: 10_000, default: 5_000 }),
  ),
  /**
   * Prepended to every consumer group id. Empty in production; test runs and side-by-side
   * stacks set it so they never share (and split) a group with another deployment.
   */
  KAFKA_GROUP_PREFIX: Type.String({ default: '' }),
  /**
   * This instance's stable name among its service's instances, which names its per-instance
   * consumer groups (`notifications-live.<INSTANCE_ID>`): the pod name on Kubernetes (downward
   * API), `<service>-<n>` from start.sh. A restart with the same name reuses its groups. Unset:
   * a name made at start, unique but new each time (events/instance-identity.ts).
   */
  INSTANCE_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$' })),
  /**
   * Where a consumer group that reads from the beginning starts when it has never committed:
   * unset (production) is the beginning, so a new deployment builds its state from the topics'
   * history. An instant (epoch ms) starts it at the first event published at or after that
   * instant instead: a stack with empty databases of its own on a broker others have used
   * (the system tests) reads its own events, not the history of the stacks before it, which
   * grew with every test (a new stack's groups spent over a minute replaying it before they
   * reached the stack's own first sign-up). Only a stack started empty at that instant may
   * set it.
   */
  KAFKA_NEW_GROUPS_SINCE: Type.Optional(Type.Integer({ minimum: 0 })),
})

export class ConfigError extends Error {}

/**
 * A setting that is a secret carries `secret: SecretRule` in its schema options, e.g.
 * `Type.String({ minLength: 32, secret: { productionMinLength: 32 } })`. With
 * NODE_ENV=production, loadConfig refuses to start when such a setting is one of the values
 * this repository ships for local runs (or any other well-known default, or a template's
 * `<placeholder>`), or is shorter than `productionMinLength`, naming the variable. Local
 * runs (scripts/start.sh, infra/local, the tests) do not set NODE_ENV=production and keep
 * their fixed development values; every image does (the Dockerfile), so compose and
 * Kubernetes get the check.
 */
export interface SecretRule {
  productionMinLength: number
  /** The setting is a URL and the secret is its password (`scheme://user:password@host`). */
  inUrl?: boolean
}

/**
 * Values that are public knowledge: this repository's development defaults (scripts/start.sh,
 * infra/local, the compose file before secrets were required) and the usual vendor and
 * tutorial ones. Compared case-insensitively.
 */
export const KNOWN_DEFAULT_SECRETS: readonly string[] = [
  'Admin1234!',
  'marketplace-local-secret',
  'marketplace-local-saved-search-link-secret-0123456789',
  'marketplace',
  'minioadmin',
  'admin',
  'administrator',
  'password',
  'password1',
  'passw0rd',
  'secret',
  'changeme',
  'change-me',
  'changeit',
  'default',
  'example',
  'test',
  'root',
  'toor',
  'letmein',
  'qwerty',
  '12345678',
  '123456789',
  '1234567890',
]
const KNOWN_DEFAULTS = new Set(KNOWN_DEFAULT_SECRETS.map((value) => value.toLowerCase()))
/** Unfilled template values: `<its secret key>`, `${SECRET}`, `CHANGE_ME`, `xxxx`. */
const PLACEHOLDER = /^(<.*>|\$\{.*\}|change[-_ ]?me.*|x+)$/i

function secretRuleOf(schema: Record<string, unknown>): SecretRule | undefined {
  if (schema.secret) return schema.secret as SecretRule
  const parts = (schema.allOf ?? schema.anyOf) as Array<Record<string, unknown>> | undefined
  return parts?.map(secretRuleOf).find(Boolean)
}

function passwordInUrl(value: string): string | undefined {
  try {
    const password = new URL(value).password
    return password ? decodeURIComponent(password) : undefined
  } catch {
    return undefined
  }
}

/** What is wrong with one production secret, or null. */
function secretProblem(value: string, rule: SecretRule): string | null {
  const secret = rule.inUrl ? passwordInUrl(value) : value
  if (secret === undefined) return null
  const what = rule.inUrl ? 'the password in it' : 'it'
  if (KNOWN_DEFAULTS.has(secret.toLowerCase()) || PLACEHOLDER.test(secret)) {
    return `${what} is a well-known default or an unfilled placeholder; set a secret of your own`
  }
  if (secret.length < rule.productionMinLength) {
    return `${what} has ${secret.length} characters; production needs at least ${rule.productionMinLength} (random ones)`
  }
  return null
}

/** Every marked secret of `config` that production must refuse, as "NAME: why" lines. */
export function productionSecretProblems(
  schema: { properties: Record<string, unknown> },
  config: Record<string, unknown>,
): string[] {
  const problems: string[] = []
  for (const [name, property] of Object.entries(schema.properties)) {
    const rule = secretRuleOf(property as Record<string, unknown>)
    const value = config[name]
    if (!rule || typeof value !== 'string') continue
    const problem = secretProblem(value, rule)
    if (problem) problems.push(`  ${name}: ${problem}`)
  }
  return problems
}

/**
 * Reads configuration once, at start, from the given environment: converts strings to the
 * schema's types, applies defaults, and fails fast with every problem in one message.
 * This is the only place (with each service's config.ts) that looks at process.env.
 */
export function loadConfig<T extends TProperties>(
  schema: TObject<T>,
  env: Record<string, string | undefined> = process.env,
): Static<TObject<T>> {
  const picked: Record<string, unknown> = {}
  for (const key of Object.keys(schema.properties)) {
    const raw = env[key]
    if (raw !== undefined && raw !== '') picked[key] = raw
  }
  const withDefaults = Value.Default(schema, picked)
  const converted = Value.Convert(schema, withDefaults)
  if (!Value.Check(schema, converted)) {
    const problems = [...Value.Errors(schema, converted)].map(
      (error) => `  ${error.path.replace(/^\//, '') || '(root)'}: ${error.message}`,
    )
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`)
  }
  if (env.NODE_ENV === 'production') {
    const weak = productionSecretProblems(schema, converted as Record<string, unknown>)
    if (weak.length > 0) {
      throw new ConfigError(
        `Refusing to start with NODE_ENV=production and a weak secret:\n${weak.join('\n')}`,
      )
    }
  }
  return converted as Static<TObject<T>>
}

export function composeConfigSchema<A extends TProperties, B extends TProperties>(
  a: TObject<A>,
  b: TObject<B>,
) {
  return Type.Composite([a, b])
}
