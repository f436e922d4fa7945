import type { FastifyBaseLogger } from 'fastify'
import { SUPPORT_MESSAGE_MAX_LENGTH } from '@marketplace/contracts/marketplace'
import { Messages, isValidEmail, normalizeEmail } from '@marketplace/contracts/validation'
import { AppError, BadRequestError } from '@marketplace/service-kit'
import { escapeHtml, type MailTransport } from '@marketplace/service-kit/mail'

/**
 * Help-and-support and contact-us messages, delivered to the support
 * inbox with reply-to the sender, so support answers with one click. Nothing is stored: the
 * form keeps the text until the send succeeds.
 */
export function createSupportMessages(deps: { transport: MailTransport; supportInbox: string }) {
  return {
    async send(input: { email?: string; message?: string }, log: FastifyBaseLogger): Promise<void> {
      const message = input.message?.trim() ?? ''
      if (!message) throw new BadRequestError(Messages.support.messageRequired, 'MESSAGE_REQUIRED')
      if (message.length > SUPPORT_MESSAGE_MAX_LENGTH) {
        throw new BadRequestError(
          Messages.tooLong('Message', SUPPORT_MESSAGE_MAX_LENGTH),
          'MESSAGE_TOO_LONG',
        )
      }
      const email = input.email === undefined ? '' : normalizeEmail(input.email)
      if (!isValidEmail(email)) {
        throw new BadRequestError(Messages.support.invalidEmail, 'INVALID_EMAIL')
      }
      try {
        await deps.transport.sendMail({
          to: deps.supportInbox,
          replyTo: email,
          subject: `Support message from ${email}`,
          text: `From: ${email}\n\n${message}\n`,
          html: `<p>From: ${escapeHtml(email)}</p><pre style="white-space:pre-wrap">${escapeHtml(message)}</pre>`,
        })
      } catch (error) {
        log.error({ err: error }, 'support message not sent')
        throw new AppError(503, 'SUPPORT_UNAVAILABLE', Messages.support.sendFailed)
      }
    },
  }
}
