import type { DomainEvent } from '@marketplace/contracts/events'
import { offerLines } from '@marketplace/contracts/marketplace'
import type { ConversationsRepository } from '../conversations/conversations-repository'
import { SYSTEM_SENDER_ID, type StoredMessage } from './message-document'
import type { MessagesRepository } from './messages-repository'

/** A post request's conversation (docs/conversations.md, "The two parties"). */
const postRequestConversation = (requestId: string) => `jr:${requestId}`

/**
 * System lines: what the marketplace writes into a request's conversation about its offer
 * (made, countered, counter accepted or declined, the agreed amount on acceptance). A line is
 * numbered like a message and stored in its bucket, so it takes its place in the history; it
 * has no sender, is never unread and cannot be reported, and announces nothing (no
 * message.sent: the step's own notification tells the other side, live and by e-mail). One
 * line per event: the event's id is kept on the conversation in the numbering write, so a
 * redelivery adds nothing. A crash between the numbering and the bucket write loses the line
 * (the history skips the number), as it would a message.
 */
export function createSystemLines(deps: {
  conversations: ConversationsRepository
  messages: MessagesRepository
}) {
  async function add(conversationId: string, event: DomainEvent, text: string): Promise<void> {
    const allocated = await deps.conversations.allocateSystemLine(conversationId, event.id)
    if (!allocated) return
    const line: StoredMessage = {
      seq: allocated.seq,
      senderId: SYSTEM_SENDER_ID,
      text,
      sentAt: new Date(event.occurredAt),
      clientId: null,
      takenDown: false,
      system: true,
    }
    await deps.messages.store(conversationId, line, [])
  }

  /** The line each offer step tells, or null for a step that tells nothing. */
  function lineOf(event: DomainEvent): string | null {
    switch (event.type) {
      case 'job-request.created': {
        const { data } = event as DomainEvent<'job-request.created'>
        return data.offer ? offerLines.offered(data.requesterName, data.offer) : null
      }
      case 'job-request.countered': {
        const { data } = event as DomainEvent<'job-request.countered'>
        return offerLines.countered(data.counter)
      }
      case 'job-request.counter-answered': {
        const { data } = event as DomainEvent<'job-request.counter-answered'>
        return data.answer === 'accepted'
          ? offerLines.counterAccepted(data.requesterName, data.counter)
          : offerLines.counterDeclined(data.requesterName, data.counter)
      }
      case 'job-request.decided': {
        const { data } = event as DomainEvent<'job-request.decided'>
        return data.status === 'accepted' && data.agreed ? offerLines.agreed(data.agreed) : null
      }
      default:
        return null
    }
  }

  return {
    /** An offer step of a request on a post: its line, when it tells one. */
    async offerStep(
      event: DomainEvent<
        | 'job-request.created'
        | 'job-request.countered'
        | 'job-request.counter-answered'
        | 'job-request.decided'
      >,
    ) {
      const text = lineOf(event as DomainEvent)
      if (text) await add(postRequestConversation(event.data.requestId), event as DomainEvent, text)
    },
  }
}

export type SystemLines = ReturnType<typeof createSystemLines>
