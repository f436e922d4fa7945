import { createHash } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import webpush from 'web-push'
import type { EventData } from '@marketplace/contracts/events'
import { kindAllowed } from '../notifications/notification-document'
import type { NotificationsRepository } from '../notifications/notifications-repository'
import { preferencesOfRecipient, type Recipients } from '../recipients/recipients-repository'
import type { PushDevice, PushDevicesRepository } from './push-devices-repository'
import type { VapidKeys } from './vapid-keys'

/** What the service worker (apps/web/public/sw.js) shows; it opens `link` on a click. */
export interface PushPayload {
  title: string
  body: string
  /** A path of the app, opened on the site's own origin. */
  link: string
  /** The notification's id: the browser shows one notice per tag. */
  tag: string
}

const TITLE = 'Marketplace'
// RFC 8291 leaves 3,993 bytes of plaintext in a 4,096-byte record; our sentences are short,
// but a post title is the user's, so the body is bounded.
const MAX_BODY_CHARS = 500

export function pushPayload(data: EventData<'notification.created'>): PushPayload {
  const body =
    data.message.length > MAX_BODY_CHARS
      ? `${data.message.slice(0, MAX_BODY_CHARS - 3)}...`
      : data.message
  return { title: TITLE, body, link: data.link, tag: data.notificationId }
}

/** What one push to one device came to. */
export type PushOutcome = 'delivered' | 'gone' | 'failed'

/**
 * Group "notifications-push": each stored notification is pushed once to the recipient's
 * devices when Mobile Notifications and its kind are on (read at sending time, as the mail
 * does). Never throws: a push is a courtesy, and a slow or failing push service must not hold
 * the group back (logged; no retry). A device the push service says is gone (404, 410) is
 * forgotten.
 */
export function createPushSender(deps: {
  devices: PushDevicesRepository
  recipients: Recipients
  notifications: Pick<NotificationsRepository, 'claimPush'>
  vapid: VapidKeys
  subject: string
  timeoutMs: number
  ttlSeconds: number
  /** A notification older than this is not pushed any more (a replay, or a long outage). */
  maxAgeMs: number
  logger: FastifyBaseLogger
}) {
  async function pushTo(userId: string, device: PushDevice, payload: PushPayload) {
    const details = webpush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: {
          subject: deps.subject,
          publicKey: deps.vapid.publicKey,
          privateKey: deps.vapid.privateKey,
        },
        TTL: deps.ttlSeconds,
        // RFC 8030 §5.4: a push service replaces a pending push of the same topic, so a
        // repeat still waiting for an offline device is delivered once.
        topic: topicOf(payload.tag),
        contentEncoding: 'aes128gcm',
      },
    )
    // Sent with fetch rather than web-push's own https request: a bounded wait, no redirect
    // followed (the endpoint was checked, where it redirects was not), and the test push
    // service may listen on plain http on the loopback address.
    const headers = Object.fromEntries(
      Object.entries(details.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
    ) as Record<string, string>
    const answer = await fetch(details.endpoint, {
      method: details.method,
      headers,
      body: details.body ?? undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(deps.timeoutMs),
    })
    await answer.body?.cancel()
    if (answer.status >= 200 && answer.status < 300) return 'delivered'
    if (answer.status === 404 || answer.status === 410) {
      await deps.devices.remove(userId, device.endpoint)
      deps.logger.info({ userId, status: answer.status }, 'push subscription gone; forgotten')
      return 'gone'
    }
    deps.logger.warn({ userId, status: answer.status }, 'push service refused a push')
    return 'failed'
  }

  return async (data: EventData<'notification.created'>): Promise<PushOutcome[]> => {
    try {
      if (Date.now() - Date.parse(data.createdAt) > deps.maxAgeMs) return []
      const preferences = preferencesOfRecipient(await deps.recipients.findById(data.userId))
      if (!preferences.mobileEnabled || !kindAllowed(data.kind, preferences)) return []
      const devices = await deps.devices.devicesOf(data.userId)
      if (devices.length === 0) return []
      // Once per notification, whichever copy of the event comes first.
      if (!(await deps.notifications.claimPush(data.notificationId))) return []
      const payload = pushPayload(data)
      const outcomes = await Promise.allSettled(
        devices.map((device) => pushTo(data.userId, device, payload)),
      )
      return outcomes.map((outcome) => {
        if (outcome.status === 'fulfilled') return outcome.value
        deps.logger.warn(
          { err: outcome.reason, userId: data.userId },
          'push not delivered (push service unreachable or too slow)',
        )
        return 'failed'
      })
    } catch (error) {
      deps.logger.error({ err: error, notificationId: data.notificationId }, 'push skipped')
      return []
    }
  }
}

/** RFC 8030 §5.4: at most 32 characters of the URL-safe base64 alphabet. */
const topicOf = (tag: string) => createHash('sha256').update(tag).digest('base64url').slice(0, 32)

export type PushSender = ReturnType<typeof createPushSender>
