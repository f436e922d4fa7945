import { buildService } from '@marketplace/service-kit'
import type { AnalyticsConfig } from './config'
import { createDailyReport } from './daily/daily-report'
import { createDailyRepository } from './daily/daily-repository'
import { dailyRoutes } from './daily/daily-routes'
import { analyticsDayIndexes } from './daily/day-document'
import { createAnalyticsConsumer } from './events/analytics-consumer'
import { analyticsSubscriptions } from './events/subscriptions'

/** The read side of the web app's analytics: daily figures for administrators and editors. */
export function buildAnalyticsApp(config: AnalyticsConfig) {
  return buildService(config, {
    database: { indexes: analyticsDayIndexes, outbox: [] },
    tokenRevocations: true,
    compose({ app, db, tokenRevocations }) {
      const repository = createDailyRepository(db)
      const consumer = createAnalyticsConsumer({
        kafka: app.kafka.client,
        topic: config.ANALYTICS_TOPIC,
        groupId: `${config.KAFKA_GROUP_PREFIX ?? ''}analytics-daily`,
        repository,
        logger: app.log,
        since: config.KAFKA_NEW_GROUPS_SINCE,
        fetchWaitMs: config.KAFKA_FETCH_WAIT_MS,
      })
      app.addHealthDetail('analytics-consumer', consumer.status)
      // The expiry where the server runs no TTL index (FerretDB); finds nothing on MongoDB.
      const sweep = setInterval(() => {
        repository
          .sweepExpired()
          .then((removed) => {
            if (removed > 0) app.log.info({ removed }, 'expired analytics days removed')
          })
          .catch((error: unknown) => app.log.warn({ err: error }, 'analytics sweep failed'))
      }, config.ANALYTICS_SWEEP_MS).unref()
      return {
        subscriptions: analyticsSubscriptions({ tokenRevocations }),
        async routes(routesApp) {
          await routesApp.register(dailyRoutes, { report: createDailyReport(repository) })
        },
        async close() {
          clearInterval(sweep)
          await consumer.close()
        },
        expose: { analyticsConsumer: consumer, dailyRepository: repository },
      }
    },
  })
}
