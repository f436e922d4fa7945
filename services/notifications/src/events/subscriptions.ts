import type { DomainEvent } from '@marketplace/contracts/events'
import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'
import type { MessageNotices } from '../conversations/message-notices'
import {
  deliveriesOfMessageRead,
  deliveriesOfMessageSent,
  deliveriesOfMessageTakenDown,
} from '../live/live-payloads'
import type { LiveServer } from '../live/live-server'
import type { NotificationsRepository } from '../notifications/notifications-repository'
import type { NotificationsService } from '../notifications/notifications-service'
import type { createNotificationMailer } from '../notifications/notification-mail'
import type { PresenceTracker } from '../presence/presence-tracker'
import type { PushDevicesRepository } from '../push/push-devices-repository'
import type { PushSender } from '../push/push-sender'
import type { Recipients } from '../recipients/recipients-repository'

/** Every event the notifications service reacts to, in one place. */
export function notificationsSubscriptions(deps: {
  service: NotificationsService
  notifications: NotificationsRepository
  recipients: Recipients
  messageNotices: MessageNotices
  presence: PresenceTracker
  live: LiveServer
  mail: ReturnType<typeof createNotificationMailer>
  pushDevices: PushDevicesRepository
  push: PushSender
  tokenRevocations: TokenRevocations
}): ConsumerDefinition[] {
  const record = async (event: DomainEvent) => {
    await deps.service.record(event)
  }
  // When this instance's live group begins (it starts at the end of its topics, below).
  const liveSince = Date.now()
  const beforeThisInstance = (occurredAt: string) => Date.parse(occurredAt) < liveSince
  return [
    {
      // One group for all instances: each event is turned into notifications exactly once.
      // No ledger: every handler is idempotent by itself (a notification's id is its event's
      // and recipient's, a conversation's notice is claimed by its event, recipients are
      // upserts, deletions repeat harmlessly), which saves two database operations per event
      // on the path the latency target measures.
      groupId: 'notifications',
      useLedger: false,
      handlers: {
        'job-request.created': record,
        'job-request.decided': record,
        'job-request.countered': record,
        'job-request.counter-answered': record,
        'people-request.created': record,
        'people-request.decided': record,
        'favorite.added': record,
        // A post's life (jobs service): its owner's expiry warning, and the requesters still
        // waiting when it was filled or expired.
        'post.expiring': record,
        'post.closed': record,
        // Told when away: once per conversation until read (docs/notifications.md).
        'message.sent': (event) => deps.messageNotices.messageSent(event),
        'message.read': (event) => deps.messageNotices.messageRead(event),
        'message.taken-down': record,
        ...deps.recipients.handlers,
        // The grace period ended: the user's notifications, preferences, address, push
        // devices and the traces of their sockets and conversations go.
        'user.deleted': async ({ data }) => {
          await deps.notifications.deleteOfUser(data.userId)
          await deps.recipients.deleteOfUser(data.userId)
          await deps.messageNotices.deleteOfUser(data.userId)
          await deps.presence.deleteOfUser(data.userId)
          await deps.pushDevices.deleteOfUser(data.userId)
        },
      },
    },
    // Each stored notification mailed once, to those who want mail. A new group starts at
    // the end of the topic: it must never mail the notifications of before its birth.
    {
      groupId: 'notifications-mail',
      fromBeginning: false,
      handlers: { 'notification.created': async ({ data }) => deps.mail(data) },
    },
    // Each stored notification pushed once (Web Push) to the devices of those who turned
    // Mobile Notifications on. Its own group, so a slow push service never delays the mail;
    // no ledger: the notification itself records that it was pushed (claimPush). Starts at
    // the end of its topic when new, as the mail group does.
    {
      groupId: 'notifications-push',
      useLedger: false,
      fromBeginning: false,
      handlers: {
        'notification.created': async ({ data }) => {
          await deps.push(data)
        },
      },
    },
    // The push fan-out: a group per instance, so every instance sees every notification and
    // message event, and the one holding the parties' sockets pushes it. Only new ones
    // matter (no replay, no ledger: pushing is per instance, and the live server skips a
    // repeated event id).
    //
    // Nothing that happened before this instance started is pushed by it: an outbox relay
    // that died between publishing and clearing publishes its events again when it restarts,
    // and this instance, new, has not seen the first copies. Every socket it holds connected
    // after they happened, and a client reads its lists when it (re)connects
    // (docs/notifications.md), so such a push could only be a repeat.
    {
      // `notifications-live.<INSTANCE_ID>`: a restarted instance rejoins its own group.
      groupId: 'notifications-live',
      perInstance: true,
      useLedger: false,
      fromBeginning: false,
      handlers: {
        'notification.created': async ({ data, occurredAt }) => {
          if (beforeThisInstance(occurredAt)) return
          await deps.live.push(data)
        },
        'message.sent': async ({ id, data, occurredAt }) => {
          if (beforeThisInstance(occurredAt)) return
          deps.live.deliverOnce(id, deliveriesOfMessageSent(data))
        },
        'message.read': async ({ id, data, occurredAt }) => {
          if (beforeThisInstance(occurredAt)) return
          deps.live.deliverOnce(id, deliveriesOfMessageRead(data))
        },
        'message.taken-down': async ({ id, data, occurredAt }) => {
          if (beforeThisInstance(occurredAt)) return
          deps.live.deliverOnce(id, deliveriesOfMessageTakenDown(data))
        },
        // A socket lives no longer than the session behind it, on whichever instance holds
        // it. The cut-off is recorded here too (a duplicate of the shared group's write), so
        // this instance refuses the old token at a reconnect even before that write lands.
        'user.tokens-revoked': async ({ data }) => {
          const validAfter = new Date(data.validAfter)
          await deps.tokenRevocations.record(data.userId, validAfter)
          deps.live.revokeTokens(data.userId, validAfter)
        },
        'user.deleted': async ({ data }) => {
          deps.live.endSessionsOf(data.userId)
        },
      },
    },
    // Its own group, as in every service: revocations must not wait behind a failing handler.
    { groupId: 'notifications-token-revocations', handlers: deps.tokenRevocations.handlers },
  ]
}
