import {
  SupportMessageRequestSchema,
  SupportMessageSentSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { TooManyRequestsError, type ServiceApp } from '@marketplace/service-kit'
import type { MailTransport } from '@marketplace/service-kit/mail'
import { createSupportMessages } from './support-messages'
import { createSupportRateLimit } from './support-rate-limit'

/**
 * POST /api/email/send-email {email, message}. Open to guests (the
 * contact page is public), so it is rate-limited per client address: `request.ip`, which is
 * the address the gateway forwards in X-Forwarded-For when the request comes from an address
 * in TRUST_PROXY (the gateway's), and the peer's own address otherwise, so nobody but the
 * gateway can choose the address they are counted under.
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
  const rateLimit = createSupportRateLimit(app.mongo.db, deps.rateLimit)
  const sweep = setInterval(() => {
    rateLimit.removeExpired().catch((error: unknown) => {
      app.log.warn({ err: error }, 'ended support rate-limit windows not removed')
    })
  }, deps.rateLimit.windowMs)
  sweep.unref()
  app.addHook('onClose', async () => clearInterval(sweep))

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
      // Before the body is validated: refused messages count too.
      onRequest: async (request) => {
        const retryAfter = await rateLimit.hit(request.ip)
        if (retryAfter !== null) {
          throw new TooManyRequestsError(Messages.support.tooManyMessages(retryAfter), retryAfter)
        }
      },
    },
    async (request) => {
      await supportMessages.send(request.body, request.log)
      return { message: Messages.support.sent }
    },
  )
}
