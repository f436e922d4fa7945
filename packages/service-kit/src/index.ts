/// <reference types="@fastify/swagger" preserve="true" />
// Route schemas everywhere may carry OpenAPI fields (tags, summary, security, hide): the
// swagger plugin's type augmentation of FastifySchema reaches every service through the kit.
export { createServiceApp, type CreateAppOptions, type ServiceApp } from './create-app'
export {
  buildService,
  type ServiceConfig,
  type ServiceDefinition,
  type ServiceParts,
  type DatabaseDeclaration,
  type ServicePlatform,
  type DatabasePlatform,
  type TokenRevocationsPlatform,
  type PlatformOf,
} from './build-service'
export { exactTypes, exactTypesKeepingUnknownFields } from './http/exact-types'
export { runService } from './run-service'
export {
  enableReuseportHandover,
  reuseportHandover,
  type ReuseportHandover,
} from './reuseport-handover'
export {
  loadConfig,
  composeConfigSchema,
  BaseConfigSchema,
  MongoConfigSchema,
  KafkaConfigSchema,
  KafkaAuthConfigSchema,
  type KafkaAuthConfig,
  ConfigError,
  type BaseConfig,
} from './config'
export * from './errors'
export type { ReadinessCheck, HealthDetail } from './plugins/health'
export type { MetricsRegistry } from './plugins/metrics'
export {
  authPlugin,
  assertSelf,
  assertRole,
  callerOf,
  decodeKey,
  type Caller,
  type AccessTokenClaims,
} from './plugins/auth'
export {
  mongoPlugin,
  connectMongo,
  ensureIndexes,
  countCommandsOf,
  COMMANDS_HEADER,
  type IndexDefinition,
} from './plugins/mongodb'
export { kafkaPlugin } from './plugins/kafka'
export {
  idempotencyPlugin,
  IDEMPOTENCY_INDEXES,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
} from './plugins/idempotency'
export { outboxPlugin } from './plugins/outbox'
export { eventsPlugin, type ConsumerDefinition } from './plugins/events'
export { loadReadModels, type ReadModel } from './read-model'
export {
  findOneAndUpdateWithEvents,
  insertWithEvents,
  updateWithEvents,
  OUTBOX_PENDING_INDEX,
  type OutboxFields,
} from './outbox/outbox-fields'
export { OutboxRelay, type OutboxTarget } from './outbox/outbox-relay'
export { insertTombstone } from './outbox/tombstones'
export { newEvent } from './events/new-event'
export { instanceIdentity, perInstanceGroupId } from './events/instance-identity'
export {
  startEventConsumer,
  type EventHandlers,
  type EventHandler,
  type TopicPosition,
} from './events/event-consumer'
export {
  createKafka,
  ensureTopics,
  saslOf,
  CONSUMER_MAX_WAIT_MS,
  CONSUMER_FETCH_WAIT_MS,
  DEAD_LETTER_TOPIC,
} from './events/kafka-client'
export { pinNewGroup } from './events/pin-new-group'
export {
  deadLetterTopicOf,
  redriveDeadLetters,
  isOutage,
  DEFAULT_HANDLER_RETRY,
  REDRIVE_GROUP_HEADER,
  type HandlerRetry,
} from './events/dead-letters'
export { isDatabaseUnavailable, DATABASE_RETRY_AFTER_SECONDS } from './database-errors'
export {
  PROCESSED_EVENTS_COLLECTION,
  PROCESSED_EVENTS_INDEXES,
  PROCESSED_EVENTS_RETENTION_MS,
  sweepProcessedEvents,
} from './events/processed-events'
export {
  createTokenRevocations,
  TOKEN_REVOCATIONS_COLLECTION,
  TOKEN_REVOCATIONS_INDEXES,
  type TokenRevocations,
  type TokenRevocationsOptions,
} from './sessions/token-revocations'
export * from './http/feed-query'
export {
  aclsOf,
  assertReadsGranted,
  TOPICS_READ,
  applyKafkaAcls,
  kafkaAclCommands,
  strimziKafkaUsers,
  KAFKA_PRINCIPALS,
  PRODUCT_TOPICS,
  type KafkaPrincipal,
} from './events/kafka-acls'
export {
  ACTIVITY_DAYS_DEFAULT,
  ACTIVITY_DAYS_MAX,
  REQUEST_ACTIVITY_COLLECTION,
  createRequestActivity,
  requestActivityIndexes,
  type ActivityField,
  type RequestActivity,
} from './stats/request-activity'
export {
  READ_AFTER_HEADER,
  READ_AFTER_EVERYONE_HEADER,
  READ_AFTER_REFRESHED_HEADER,
  MAX_READ_AFTER_POSITIONS,
  formatPosition,
  parsePositions,
  type WrittenPosition,
} from './consistency/written-positions'
export { recordWrittenPosition } from './consistency/write-recorder'
export { isTracingOn } from './tracing/tracing-state'
