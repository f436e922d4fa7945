import type { EventData } from '@marketplace/contracts/events'
import { appLink, escapeHtml, type MailTransport } from '@marketplace/service-kit/mail'
import { preferencesOfRecipient, type Recipients } from '../recipients/recipients-repository'
import type { SavedSearchDocument, SavedSearchesRepository } from './saved-searches-repository'
import { unsubscribeToken } from './unsubscribe-token'

/** The web app's page the e-mail's unsubscribe link opens (it confirms with one POST). */
export const UNSUBSCRIBE_PAGE = '/saved-searches/unsubscribe'
/** The API's one-click endpoint, under the same origin through the gateway. */
export const UNSUBSCRIBE_API = '/api/notifications/saved-searches/unsubscribe'
const SETTINGS_PATH = '/settings-saved-searches'

/** A daily digest holds at most this many matches (the rest: "and N more" in the app). */
export const DIGEST_MAX_ITEMS = 50
const DAY_MS = 24 * 60 * 60 * 1000

/** The links and headers every saved search e-mail carries (RFC 8058 one-click unsubscribe). */
function unsubscribeParts(appPublicUrl: string, secret: string, searchId: string) {
  const token = encodeURIComponent(unsubscribeToken(secret, searchId))
  const page = appLink(appPublicUrl, `${UNSUBSCRIBE_PAGE}?token=${token}`)
  const oneClick = appLink(appPublicUrl, `${UNSUBSCRIBE_API}?token=${token}`)
  return {
    page,
    headers: {
      'List-Unsubscribe': `<${oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}

/** The mail of a saved search's matches: one (immediate) or the day's (digest). */
export function savedSearchMail(input: {
  firstName: string | undefined
  searchName: string
  matches: Array<{ message: string; link: string }>
  appPublicUrl: string
  secret: string
  searchId: string
}) {
  const { page, headers } = unsubscribeParts(input.appPublicUrl, input.secret, input.searchId)
  const settings = appLink(input.appPublicUrl, SETTINGS_PATH)
  const greeting = input.firstName ? `Hi ${input.firstName},` : 'Hi,'
  const single = input.matches.length === 1
  const subject = single
    ? input.matches[0]!.message
    : `${input.matches.length} new posts for your saved search "${input.searchName}"`
  const footer = `You get this e-mail because you saved the search "${input.searchName}".`
  const lines = input.matches.map(
    (match) => `${match.message}\n${appLink(input.appPublicUrl, match.link)}`,
  )
  return {
    subject: subject.length > 120 ? `${subject.slice(0, 117)}...` : subject,
    headers,
    text: `${greeting}\n\n${lines.join('\n\n')}\n\n${footer}\nStop these e-mails: ${page}\nAll your saved searches: ${settings}\n`,
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      ...input.matches.map(
        (match) =>
          `<p>${escapeHtml(match.message)}<br><a href="${escapeHtml(appLink(input.appPublicUrl, match.link))}">See it in Marketplace</a></p>`,
      ),
      `<p style="color:#6b7280;font-size:12px">${escapeHtml(footer)} <a href="${escapeHtml(page)}">Stop these e-mails</a> · <a href="${escapeHtml(settings)}">Saved searches</a></p>`,
    ].join('\n'),
  }
}

/**
 * A stored `saved-search` notification in the mail group: mailed at once for a search on
 * "immediate", kept for the search's daily digest on "daily", nothing on "off" or when the
 * user turned e-mail notifications off altogether. Read at sending time, so an unsubscribe
 * stops the next one.
 */
export function createSavedSearchMailer(deps: {
  transport: MailTransport
  recipients: Recipients
  searches: SavedSearchesRepository
  appPublicUrl: string
  secret: string
  maxAgeMs: number
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  async function recipientToMail(userId: string) {
    const recipient = await deps.recipients.findById(userId)
    if (!recipient?.email || !preferencesOfRecipient(recipient).emailEnabled) return null
    return recipient
  }

  async function notificationStored(data: EventData<'notification.created'>): Promise<void> {
    if (!data.savedSearchId) return
    if (now().getTime() - Date.parse(data.createdAt) > deps.maxAgeMs) return
    const search = await deps.searches.findOfUser(data.savedSearchId, data.userId)
    if (!search || search.email === 'off') return
    const match = { message: data.message, link: data.link }
    if (search.email === 'daily') {
      await deps.searches.addToDigest(
        search._id,
        match,
        new Date(now().getTime() + DAY_MS),
        DIGEST_MAX_ITEMS,
      )
      return
    }
    const recipient = await recipientToMail(data.userId)
    if (!recipient) return
    await deps.transport.sendMail({
      to: recipient.email,
      ...savedSearchMail({
        firstName: recipient.firstName,
        searchName: search.name,
        matches: [match],
        appPublicUrl: deps.appPublicUrl,
        secret: deps.secret,
        searchId: search._id,
      }),
    })
  }

  /** The digest of a search the sweep claimed (its matches as they were when claimed). */
  async function sendDigest(search: SavedSearchDocument): Promise<void> {
    const matches = search.digest ?? []
    if (matches.length === 0 || search.email !== 'daily') return
    const recipient = await recipientToMail(search.userId)
    if (!recipient) return
    await deps.transport.sendMail({
      to: recipient.email,
      ...savedSearchMail({
        firstName: recipient.firstName,
        searchName: search.name,
        matches,
        appPublicUrl: deps.appPublicUrl,
        secret: deps.secret,
        searchId: search._id,
      }),
    })
  }

  return { notificationStored, sendDigest }
}

export type SavedSearchMailer = ReturnType<typeof createSavedSearchMailer>
