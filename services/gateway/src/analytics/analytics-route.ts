import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@sinclair/typebox'
import {
  ANALYTICS_DEVICE_TYPES,
  ANALYTICS_EVENTS_PATH,
  ANALYTICS_EVENT_NAMES,
  ANALYTICS_LIMITS,
} from '@marketplace/contracts/marketplace'
import { errorResponses } from '@marketplace/contracts/api'
import { AppError } from '@marketplace/service-kit'
import type { AnalyticsPublisher } from './analytics-publisher'

const PropValue = Type.Union([
  Type.String({ maxLength: ANALYTICS_LIMITS.propValueMax }),
  Type.Number(),
  Type.Boolean(),
])

const AnalyticsEventSchema = Type.Object(
  {
    name: Type.Union(ANALYTICS_EVENT_NAMES.map((name) => Type.Literal(name))),
    occurredAt: Type.String({ format: 'date-time' }),
    path: Type.String({ minLength: 1, maxLength: ANALYTICS_LIMITS.pathMax, pattern: '^/' }),
    deviceType: Type.Union(ANALYTICS_DEVICE_TYPES.map((type) => Type.Literal(type))),
    sessionId: Type.String({ pattern: ANALYTICS_LIMITS.sessionIdPattern }),
    props: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$' }), PropValue, {
        maxProperties: ANALYTICS_LIMITS.propsMax,
        additionalProperties: false,
      }),
    ),
  },
  { additionalProperties: false },
)

const AnalyticsBatchSchema = Type.Object(
  {
    events: Type.Array(AnalyticsEventSchema, { minItems: 1, maxItems: ANALYTICS_LIMITS.batchMax }),
  },
  { additionalProperties: false },
)

/**
 * POST /api/analytics/events: the web app's product analytics, for guests and
 * members alike. Anonymous: the body holds no user id and the gateway adds none (it verifies
 * no tokens, and analytics need none). Validated here, then handed to the publisher and
 * answered 202 at once. No cookies are read, so there is nothing for CSRF to abuse; the
 * browser's sendBeacon cannot set headers anyway.
 */
export async function analyticsRoute(
  app: FastifyInstance,
  deps: { publisher: AnalyticsPublisher | null; rateLimitMax: number; windowMs: number },
) {
  app.post<{ Body: Static<typeof AnalyticsBatchSchema> }>(
    ANALYTICS_EVENTS_PATH,
    {
      schema: {
        tags: ['analytics'],
        summary: "Record a batch of the web app's product analytics events",
        body: AnalyticsBatchSchema,
        response: {
          202: Type.Object(
            { accepted: Type.Integer({ description: 'Events queued for publishing' }) },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 413, 429, 503),
        },
      },
      // A page sends a batch every few seconds at most; a tighter bucket than the general one
      // keeps a script from filling the topic. The 429's body comes from the gateway's
      // rate-limit plugin, whose options a route's own limit inherits.
      config: {
        rateLimit: {
          max: deps.rateLimitMax,
          timeWindow: deps.windowMs,
        },
      },
    },
    async (request, reply) => {
      if (!deps.publisher) {
        throw new AppError(503, 'ANALYTICS_UNAVAILABLE', 'Analytics are not configured here')
      }
      const receivedAt = new Date().toISOString()
      const accepted = deps.publisher.enqueue(
        request.body.events.map((event) => ({ ...event, receivedAt })),
      )
      return reply.code(202).send({ accepted })
    },
  )
}
