import { Type } from '@sinclair/typebox'
import { SECURED, errorResponses } from '@marketplace/contracts/api'
import { ROLES } from '@marketplace/contracts/marketplace'
import { ForbiddenError, callerOf, integerParam, type ServiceApp } from '@marketplace/service-kit'
import { DAYS_MAX, DailyReportSchema, type DailyReportService } from './daily-report'

export const ANALYTICS_DAILY_PATH = '/api/analytics/daily'
const DEFAULT_DAYS = 30
const ANALYSTS = [ROLES.Admin, ROLES.Editor] as string[]

const DailyQuerySchema = Type.Object({
  days: Type.Optional(
    Type.String({
      maxLength: 8,
      description: `Days up to today, 1 to ${DAYS_MAX} (default ${DEFAULT_DAYS}); anything else: 400`,
      examples: ['30'],
    }),
  ),
})

/**
 * The Analytics screen: administrators and editors only. Checked on request,
 * before the query is read, as the moderation queue does: whoever may not see the figures
 * learns nothing from a 400.
 */
export async function dailyRoutes(app: ServiceApp, deps: { report: DailyReportService }) {
  app.addHook('onRequest', app.authenticate)
  app.addHook('onRequest', async (request) => {
    if (!callerOf(request).roles.some((role) => ANALYSTS.includes(role))) {
      throw new ForbiddenError('Only administrators and editors can see analytics', 'ANALYSTS_ONLY')
    }
  })

  app.get(
    ANALYTICS_DAILY_PATH,
    {
      schema: {
        tags: ['analytics'],
        summary:
          'Product analytics by UTC day: page views, devices, errors, help, support, profiles',
        security: SECURED,
        querystring: DailyQuerySchema,
        response: { 200: DailyReportSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      deps.report.lastDays(
        integerParam(request.query.days, 'days', { min: 1, max: DAYS_MAX, fallback: DEFAULT_DAYS }),
      ),
  )
}
