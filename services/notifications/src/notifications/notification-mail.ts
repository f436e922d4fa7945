import type { EventData } from '@marketplace/contracts/events'
import { appLink, escapeHtml, type MailTransport } from '@marketplace/service-kit/mail'
import { preferencesOfRecipient, type Recipients } from '../recipients/recipients-repository'
import { kindAllowed } from './notification-document'

const PREFERENCES_PATH = '/settings-notifications'

/** The mail of one notification: the sentence, a link into the app, and how to stop these. */
export function notificationMail(input: {
  firstName: string | undefined
  message: string
  link: string
  appPublicUrl: string
}) {
  const open = appLink(input.appPublicUrl, input.link)
  const settings = appLink(input.appPublicUrl, PREFERENCES_PATH)
  const greeting = input.firstName ? `Hi ${input.firstName},` : 'Hi,'
  const footer =
    'You get this e-mail because e-mail notifications are on. You can turn them off in Settings, Notifications.'
  return {
    subject: input.message.length > 90 ? `${input.message.slice(0, 87)}...` : input.message,
    text: `${greeting}\n\n${input.message}.\n\nOpen it: ${open}\n\n${footer}\n${settings}\n`,
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(input.message)}.</p>`,
      `<p><a href="${escapeHtml(open)}">Open it in Marketplace</a></p>`,
      `<p style="color:#6b7280;font-size:12px">${escapeHtml(footer)} <a href="${escapeHtml(settings)}">Notification settings</a></p>`,
    ].join('\n'),
  }
}

/**
 * Group "notifications-mail": each stored notification is e-mailed once when its recipient
 * has emailEnabled and its kind still switched on (both read at sending time, so switching
 * mails or Messages off stops the next one). A
 * failed send throws, so the consumer retries it; the ledger keeps a redelivery from mailing
 * twice once it was sent.
 */
export function createNotificationMailer(deps: {
  transport: MailTransport
  recipients: Recipients
  appPublicUrl: string
  /** A notification older than this is not mailed any more (a replay, or a long outage). */
  maxAgeMs: number
}) {
  return async (data: EventData<'notification.created'>): Promise<void> => {
    // A saved search's match is mailed as its search says (saved-searches/saved-search-mail.ts).
    if (data.kind === 'saved-search') return
    if (Date.now() - Date.parse(data.createdAt) > deps.maxAgeMs) return
    const recipient = await deps.recipients.findById(data.userId)
    if (!recipient?.email) return
    const preferences = preferencesOfRecipient(recipient)
    if (!preferences.emailEnabled || !kindAllowed(data.kind, preferences)) return
    await deps.transport.sendMail({
      to: recipient.email,
      ...notificationMail({
        firstName: recipient.firstName,
        message: data.message,
        link: data.link,
        appPublicUrl: deps.appPublicUrl,
      }),
    })
  }
}
