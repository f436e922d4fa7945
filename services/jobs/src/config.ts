import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { FEED_PAGE_SIZE, MAX_PAGE_SIZE } from '@marketplace/contracts/marketplace'
import { SnapshotConfigSchema } from '@marketplace/read-models/snapshot'

const JobsConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  // The feed index's snapshots (docs/scale.md).
  SnapshotConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'jobs' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4003 }),
    /** Posts per feed page (the client may ask for fewer or more with `limit`, up to the max). */
    FEED_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: FEED_PAGE_SIZE }),
    /** How often interrupted post deletions are looked for, and how old one must be. */
    POST_DELETION_SWEEP_MS: Type.Integer({ minimum: 100, default: 60_000 }),
    /** How often due expiry warnings and expiry notices are sent (docs/posts.md). */
    POST_LIFE_SWEEP_MS: Type.Integer({ minimum: 100, default: 60_000 }),
  }),
])

export type JobsConfig = ReturnType<typeof readConfig>

/** The only place the jobs service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(JobsConfigSchema, env)
}
