import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { ANALYTICS_TOPIC } from '@marketplace/contracts/marketplace'

const AnalyticsConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'analytics' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4009 }),
    /** Where the gateway publishes the web app's events. Tests give each file its own topic. */
    ANALYTICS_TOPIC: Type.String({ minLength: 1, default: ANALYTICS_TOPIC }),
    /** How often days past their 13 months are deleted (FerretDB runs no TTL index). */
    ANALYTICS_SWEEP_MS: Type.Integer({ minimum: 1000, default: 60 * 60 * 1000 }),
  }),
])

export type AnalyticsConfig = ReturnType<typeof readConfig>

/** The only place the analytics service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(AnalyticsConfigSchema, env)
}
