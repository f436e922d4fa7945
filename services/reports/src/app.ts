import { buildService } from '@marketplace/service-kit'
import { CATALOG_INDEXES, createCatalogs } from '@marketplace/read-models/catalogs'
import type { ReportsConfig } from './config'
import { reportsSubscriptions } from './events/subscriptions'
import { REPORTS_COLLECTION } from './reports/report-document'
import { createReportsRepository, reportIndexes } from './reports/reports-repository'
import { createReportsService } from './reports/reports-service'
import { moderationRoutes } from './reports/moderation-routes'
import { reportRoutes } from './reports/report-routes'

/**
 * Reports on posts and people (read models of both) and on messages (filed in the
 * conversations service), and their moderation.
 */
export function buildReportsApp(config: ReportsConfig) {
  return buildService(config, {
    database: {
      indexes: [...reportIndexes, ...CATALOG_INDEXES],
      outbox: [REPORTS_COLLECTION],
    },
    tokenRevocations: true,
    compose({ db, notifyOutbox, tokenRevocations }) {
      const reports = createReportsRepository(db, { notifyOutbox })
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
      return {
        subscriptions: reportsSubscriptions({
          catalogs: consumers('reports'),
          reports: service,
          tokenRevocations,
        }),
        async routes(app) {
          await app.register(reportRoutes, { service })
          await app.register(moderationRoutes, { service, pageSize: config.QUEUE_PAGE_SIZE })
        },
      }
    },
  })
}
