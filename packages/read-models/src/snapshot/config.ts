import { Type, type Static } from '@sinclair/typebox'
import { createS3SnapshotStore, type SnapshotStore } from './snapshot-store'

/**
 * Where a service keeps its read models' snapshots (docs/scale.md). Without
 * SNAPSHOT_S3_ENDPOINT there are none: every instance loads from the database.
 */
export const SnapshotConfigSchema = Type.Object({
  SNAPSHOT_S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s/?#]+$' })),
  SNAPSHOT_S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  SNAPSHOT_S3_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SNAPSHOT_S3_SECRET_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SNAPSHOT_S3_BUCKET: Type.String({
    pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
    default: 'marketplace-read-models',
  }),
  /** Under this key prefix (tests and side-by-side stacks keep their own). */
  SNAPSHOT_S3_PREFIX: Type.String({ default: 'read-models/' }),
  /** How old the stored snapshot may grow before a ready instance writes a new one. */
  SNAPSHOT_EVERY_MS: Type.Integer({ minimum: 1000, default: 10 * 60_000 }),
})

export type SnapshotConfig = Static<typeof SnapshotConfigSchema>

export function snapshotStoreFrom(config: SnapshotConfig): SnapshotStore | null {
  if (!config.SNAPSHOT_S3_ENDPOINT) return null
  if (!config.SNAPSHOT_S3_ACCESS_KEY || !config.SNAPSHOT_S3_SECRET_KEY)
    throw new Error('SNAPSHOT_S3_ENDPOINT needs SNAPSHOT_S3_ACCESS_KEY and SNAPSHOT_S3_SECRET_KEY')
  return createS3SnapshotStore({
    endpoint: config.SNAPSHOT_S3_ENDPOINT,
    region: config.SNAPSHOT_S3_REGION,
    accessKeyId: config.SNAPSHOT_S3_ACCESS_KEY,
    secretAccessKey: config.SNAPSHOT_S3_SECRET_KEY,
    bucket: config.SNAPSHOT_S3_BUCKET,
    prefix: config.SNAPSHOT_S3_PREFIX,
  })
}
