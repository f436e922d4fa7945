import type { DomainEvent } from '@marketplace/contracts/events'
import { notificationId } from '../notifications/notification-document'
import type { NotificationsService } from '../notifications/notifications-service'
import type { PresenceTracker } from '../presence/presence-tracker'
import type { MessageNoticesRepository } from './message-notices-repository'

/**
 * "Told when away", in the shared "notifications" group: a message to someone
 * with no open socket on any instance makes the notification "New message from {name}",
 * once per conversation until they read it (not once per message); its mail follows from
 * the notification, as every notification's does. Someone with a socket sees the message
 * live and is told nothing more.
 */
export function createMessageNotices(deps: {
  repository: MessageNoticesRepository
  service: NotificationsService
  presence: PresenceTracker
}) {
  return {
    async messageSent(event: DomainEvent<'message.sent'>): Promise<void> {
      if (deps.service.isOldNews(event)) return
      const { conversationId, recipientId } = event.data
      if (await deps.presence.isOnline(recipientId)) return
      if ((await deps.repository.claim(conversationId, recipientId, event.id)) === 'taken') return
      const outcome = await deps.service.record(event)
      // Not told (Messages is off): nothing to wait for a read of; the next message asks again.
      if (outcome === 'switched-off' || outcome === 'nothing') {
        await deps.repository.release(conversationId, recipientId, event.id)
      }
    },

    /**
     * The reader has seen the conversation: the next message may tell them again, and the
     * notice that told them is read too (it would otherwise announce what they saw).
     */
    async messageRead(event: DomainEvent<'message.read'>): Promise<void> {
      const { conversationId, readerId } = event.data
      const told = await deps.repository.takeBack(conversationId, readerId)
      if (told)
        await deps.service.markSeenElsewhere(notificationId(told.eventId, readerId), readerId)
    },

    deleteOfUser: (userId: string) => deps.repository.deleteOfUser(userId),
  }
}

export type MessageNotices = ReturnType<typeof createMessageNotices>
