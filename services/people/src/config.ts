import { Type } from '@sinclair/typebox'
import {
  BaseConfigSchema,
  KafkaConfigSchema,
  MongoConfigSchema,
  loadConfig,
} from '@marketplace/service-kit'
import { SnapshotConfigSchema } from '@marketplace/read-models/snapshot'
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  FEED_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '@marketplace/contracts/marketplace'

const PeopleConfigSchema = Type.Composite([
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  // The people feed's snapshots (docs/scale.md).
  SnapshotConfigSchema,
  Type.Object({
    SERVICE_NAME: Type.String({ default: 'people' }),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4002 }),
    /** Workers per feed page (the client may ask for fewer or more with `limit`, up to the max). */
    FEED_PAGE_SIZE: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: FEED_PAGE_SIZE }),
    /** How long a deleted account can still be kept (30 days). Tests shorten it. */
    DELETION_GRACE_MS: Type.Integer({
      minimum: 0,
      default: ACCOUNT_DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000,
    }),
    /** How often accounts whose grace period is over are looked for. */
    PURGE_INTERVAL_MS: Type.Integer({ minimum: 100, default: 60 * 60 * 1000 }),
  }),
])

export type PeopleConfig = ReturnType<typeof readConfig>

/** The only place the people service reads its environment. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(PeopleConfigSchema, env)
}
