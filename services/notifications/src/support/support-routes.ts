import type { FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { SUPPORT_MESSAGE_MAX_LENGTH } from '@marketplace/contracts/marketplace'
import { Messages, isValidEmail, normalizeEmail } from '@marketplace/contracts/validation'
import { AppError, BadRequestError, LooseBody, type LooseBodyValue } from '@marketplace/service-kit'
import { escapeHtml, type MailTransport } from '@marketplace/service-kit/mail'

/**
 * POST /api/email/send-email {email, message}: help-and-support and contact-us messages
 * (spec 2 §2.6, §2.18). Open to guests (the contact page is public), so it is rate-limited per
 * address. Delivered to the support inbox with reply-to the sender, so support answers with
 * one click. Nothing is stored: the form keeps the text until the send succeeds.
 */
export async function supportRoutes(
  app: FastifyInstance,
  deps: {
    transport: MailTransport
    supportInbox: string
    rateLimit: { max: number; windowMs: number }
  },
) {
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

  app.post('/api/email/send-email', { schema: { body: LooseBody } }, async (request) => {
    const body = (request.body ?? {}) as NonNullable<LooseBodyValue>
    const message = typeof body.message === 'string' ? body.message.trim() : ''
    if (!message) throw new BadRequestError(Messages.support.messageRequired, 'MESSAGE_REQUIRED')
    if (message.length > SUPPORT_MESSAGE_MAX_LENGTH) {
      throw new BadRequestError(
        Messages.tooLong('Message', SUPPORT_MESSAGE_MAX_LENGTH),
        'MESSAGE_TOO_LONG',
      )
    }
    const email = typeof body.email === 'string' ? normalizeEmail(body.email) : ''
    if (!isValidEmail(email))
      throw new BadRequestError(Messages.support.invalidEmail, 'INVALID_EMAIL')
    try {
      await deps.transport.sendMail({
        to: deps.supportInbox,
        replyTo: email,
        subject: `Support message from ${email}`,
        text: `From: ${email}\n\n${message}\n`,
        html: `<p>From: ${escapeHtml(email)}</p><pre style="white-space:pre-wrap">${escapeHtml(message)}</pre>`,
      })
    } catch (error) {
      request.log.error({ err: error }, 'support message not sent')
      throw new AppError(503, 'SUPPORT_UNAVAILABLE', Messages.support.sendFailed)
    }
    return { message: Messages.support.sent }
  })
}
