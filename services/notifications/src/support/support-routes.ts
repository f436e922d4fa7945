import rateLimit from '@fastify/rate-limit'
import {
  SupportMessageRequestSchema,
  SupportMessageSentSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import type { ServiceApp } from '@marketplace/service-kit'
import type { MailTransport } from '@marketplace/service-kit/mail'
import { createSupportMessages } from './support-messages'

/**
 * POST /api/email/send-email {email, message} (spec 2 §2.6, §2.18). Open to guests (the
 * contact page is public), so it is rate-limited per address.
 */
export async function supportRoutes(
  app: ServiceApp,
  deps: {
    transport: MailTransport
    supportInbox: string
    rateLimit: { max: number; windowMs: number }
  },
) {
  const supportMessages = createSupportMessages(deps)
  // In-memory per instance: with N instances a sender gets at most N times the budget, still
  // far too few to flood the inbox. The gateway's own per-IP limit comes first anyway.
  await app.register(rateLimit, {
    max: deps.rateLimit.max,
    timeWindow: deps.rateLimit.windowMs,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      message: Messages.support.tooManyMessages(Math.ceil(context.ttl / 1000)),
    }),
  })

  app.post(
    '/api/email/send-email',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Sends a Help & Support or Contact us message to the support inbox',
        security: [],
        body: SupportMessageRequestSchema,
        response: { 200: SupportMessageSentSchema, ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => {
      await supportMessages.send(request.body, request.log)
      return { message: Messages.support.sent }
    },
  )
}
