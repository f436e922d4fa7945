import { Type, type Static, type TSchema } from '@sinclair/typebox'

/**
 * What every route shares in its HTTP contract: the one error body, ids in paths, and the
 * security requirements the OpenAPI document names (the schemes themselves are declared
 * once, in service-kit's OpenAPI plugin).
 */

/** Every 4xx and 5xx of every service: `{ message, code }` (service-kit's error handler). */
export const ErrorSchema = Type.Object(
  {
    message: Type.String({ description: 'What went wrong, in words a person understands' }),
    code: Type.String({ description: 'A stable, machine-readable code', examples: ['NOT_FOUND'] }),
  },
  { title: 'Error' },
)

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Authentication required, or the token is no longer valid',
  403: 'Not allowed for this caller',
  404: 'Not found, or not visible to this caller',
  409: 'Conflicts with the current state',
  413: 'The body is too large',
  415: 'Unsupported media type',
  429: 'Too many requests; Retry-After says when to try again',
  503: 'Temporarily unavailable',
}

/**
 * The error answers a route can give, for its `response` map:
 * `response: { 200: PostSchema, ...errorResponses(400, 401, 404) }`.
 * 400 comes with every route whose params, query or body are validated.
 */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, TSchema> {
  const responses = {} as Record<S, TSchema>
  for (const status of statuses) {
    responses[status] = Type.Object(ErrorSchema.properties, {
      title: 'Error',
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
    })
  }
  return responses
}

/** A 204 and similar answers without a body. */
export const NoContent = Type.Null({ description: 'No content' })

/** A 24-hex-digit id (MongoDB ObjectId) in a path. Other strings are refused with 404 by the routes, so the schema only says string. */
export const IdParamsSchema = Type.Object({ id: Type.String({ description: 'The resource id' }) })

export const UserIdParamsSchema = Type.Object({
  userId: Type.String({ description: "The caller's own user id (checked against the token)" }),
})

/** An OpenAPI security requirement list, as Fastify's route schema types it. */
type SecurityRequirements = Array<{ [scheme: string]: string[] }>

/** OpenAPI security requirements (schemes: bearerAuth, refreshCookie, csrfHeader). */
export const SECURED: SecurityRequirements = [{ bearerAuth: [] }]
/** Signed-in callers see more; anyone may call. */
export const OPTIONALLY_SECURED: SecurityRequirements = [{}, { bearerAuth: [] }]
/** Cookie-authenticated calls: the refresh cookie plus the double-submit CSRF header. */
export const COOKIE_SECURED: SecurityRequirements = [{ refreshCookie: [], csrfHeader: [] }]

// ---------------------------------------------------------------------------------------
// Stats over time (docs/ratings-and-stats.md): the jobs and people services answer the
// same daily series of the caller's requests.
// ---------------------------------------------------------------------------------------

export const StatsDaysQuerySchema = Type.Object({
  days: Type.Optional(
    Type.String({
      maxLength: 10,
      description: 'Days of the daily series, ending today (UTC): 1 to 90, default 30',
      examples: ['30'],
    }),
  ),
})
export type StatsDaysQuery = Static<typeof StatsDaysQuerySchema>

const dayCount = (description: string) => Type.Integer({ minimum: 0, description })

export const RequestActivityDaySchema = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'A UTC day', examples: ['2026-11-25'] }),
    received: dayCount('Requests the user received that day'),
    sent: dayCount('Requests the user sent that day'),
    receivedAccepted: dayCount('Requests the user received and accepted that day'),
    sentAccepted: dayCount('Requests the user sent that someone accepted that day'),
  },
  { additionalProperties: false, title: 'RequestActivityDay' },
)
export type RequestActivityDay = Static<typeof RequestActivityDaySchema>
