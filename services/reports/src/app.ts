import {
  TOKEN_REVOCATIONS_INDEXES,
  authPlugin,
  createServiceApp,
  createTokenRevocations,
  kafkaPlugin,
  mongoPlugin,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { CATALOG_INDEXES, createCatalogs } from '@marketplace/service-kit/read-models'
import type { ReportsConfig } from './config'
import { reportsSubscriptions } from './events/subscriptions'
import { REPORTS_COLLECTION } from './reports/report-document'
import { createReportsRepository, reportIndexes } from './reports/reports-repository'
import { createReportsService } from './reports/reports-service'
import { moderationRoutes } from './reports/moderation-routes'
import { reportRoutes } from './reports/report-routes'

export async function buildReportsApp(config: ReportsConfig) {
  const app = await createServiceApp({
    serviceName: config.SERVICE_NAME,
    logLevel: config.LOG_LEVEL,
  })
  await app.register(mongoPlugin, {
    url: config.MONGO_URL,
    indexes: [...reportIndexes, ...CATALOG_INDEXES, ...TOKEN_REVOCATIONS_INDEXES],
  })
  const db = app.mongo.db
  const tokenRevocations = createTokenRevocations(db)

  // The relay exists only once the Kafka plugin is registered; writes before that are still
  // published by its first sweep.
  let notifyOutbox: (target: OutboxTarget) => void = () => {}
  const reports = createReportsRepository(db, {
    notifyOutbox: (target) => notifyOutbox(target),
  })
  const { posts, people, consumers } = createCatalogs(db, {
    // A deleted post leaves nothing to review: its open reports close.
    postDeleted: (postId) => service.closeOfDeletedPost(postId),
    // The grace period ended: nothing of the user stays, reports by or about them included.
    userDeleted: (userId) => reports.deleteOfUser(userId),
  })
  const service = createReportsService({
    reports,
    posts,
    people,
    reviewHours: config.REPORT_REVIEW_HOURS,
  })

  await app.register(kafkaPlugin, {
    brokers: config.KAFKA_BROKERS,
    clientId: config.SERVICE_NAME,
    outboxCollections: [REPORTS_COLLECTION],
    pollMs: config.OUTBOX_POLL_MS,
    consumers: reportsSubscriptions({ catalogs: consumers('reports'), tokenRevocations }),
    groupPrefix: config.KAFKA_GROUP_PREFIX,
  })
  notifyOutbox = (target) => app.events.notifyOutbox(target)
  await app.register(authPlugin, {
    publicKey: config.JWT_PUBLIC_KEY,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    isTokenStillValid: tokenRevocations.isTokenStillValid,
  })

  await app.register(reportRoutes, { service })
  await app.register(moderationRoutes, { service, pageSize: config.QUEUE_PAGE_SIZE })
  return app
}
