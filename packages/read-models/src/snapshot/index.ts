export {
  createS3SnapshotStore,
  type SnapshotHeader,
  type SnapshotStore,
  type StoredSnapshot,
} from './snapshot-store'
export {
  createFollowedModel,
  type FollowedModel,
  type FollowedModelOptions,
} from './followed-model'
export { topicsOf, endPositions } from './topic-positions'
export { SnapshotConfigSchema, snapshotStoreFrom, type SnapshotConfig } from './config'
export { toDatedJson, fromDatedJson } from './dated-json'
