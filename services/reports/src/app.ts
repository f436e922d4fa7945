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
    compose({ app, db, notifyOutbox, tokenRevocations }) {
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
      // Reports stored open before the queue existed join it in the background, and those
      // closed before the closed queue existed are listed in it; until each is done, its
      // queue is answered from the reports themselves (report-queue-repository.ts,
      // closed-queue-repository.ts).
      let closing = false
      const filling = Promise.all([
        reports
          .fillQueue(() => closing)
          .then(
            (joined) => {
              if (joined > 0) app.log.info({ joined }, 'open reports joined the moderation queue')
            },
            (error: unknown) =>
              app.log.warn(
                { err: error },
                'filling the moderation queue failed; the next start goes on',
              ),
          ),
        reports
          .fillClosedQueue(() => closing)
          .then(
            (listed) => {
              if (listed > 0) app.log.info({ listed }, 'closed reports listed in the closed queue')
            },
            (error: unknown) =>
              app.log.warn(
                { err: error },
                'filling the closed moderation queue failed; the next start goes on',
              ),
          ),
      ])
      return {
        async close() {
          closing = true
          await filling
        },
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
