import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

/** Settings every service reads; a service adds its own with `extendConfig`. */
export const BaseConfigSchema = Type.Object({
  SERVICE_NAME: Type.String({ minLength: 1 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535 }),
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
  MONGO_URL: Type.String({ pattern: '^mongodb(\\+srv)?://' }),
})

export const KafkaConfigSchema = Type.Object({
  /** Comma-separated host:port list. */
  KAFKA_BROKERS: Type.String({ minLength: 1 }),
  /**
   * Milliseconds between the outbox relay's sweeps for pending documents. Every write names
   * its document to the relay, which publishes it at once, so a sweep only finds what a
   * crashed process left behind (a restarted process sweeps at start). On FerretDB a sweep
   * scans the whole collection, hence once a minute. Tests set it low.
   */
  OUTBOX_POLL_MS: Type.Integer({ minimum: 10, default: 60_000 }),
  /**
   * Prepended to every consumer group id. Empty in production; test runs and side-by-side
   * stacks set it so they never share (and split) a group with another deployment.
   */
  KAFKA_GROUP_PREFIX: Type.String({ default: '' }),
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
  return converted as Static<TObject<T>>
}

export function composeConfigSchema<A extends TProperties, B extends TProperties>(
  a: TObject<A>,
  b: TObject<B>,
) {
  return Type.Composite([a, b])
}
