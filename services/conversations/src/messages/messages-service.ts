import type { MessageHistory, MessageView, SendMessageBody } from '@marketplace/contracts/api'
import {
  CONVERSATION_LIMITS,
  CONVERSATION_MESSAGES,
  READ_ONLY_MESSAGES,
} from '@marketplace/contracts/marketplace'
import { BadRequestError, ConflictError, newEvent } from '@marketplace/service-kit'
import {
  otherRole,
  partyId,
  roleOf,
  type ConversationDocument,
  type PartyRole,
} from '../conversations/conversation-document'
import type { ConversationsRepository } from '../conversations/conversations-repository'
import type { ConversationsService, Context } from '../conversations/conversations-service'
import { readOnlyReason } from '../conversations/read-only'
import type { InboxRepository } from '../inbox/inbox-repository'
import { displayName, type UserDirectory } from '../users/user-directory'
import { clientIdKey, messageIdOf, parseMessageId, type StoredMessage } from './message-document'
import { messageView } from './message-views'
import type { MessagesRepository } from './messages-repository'
import type { SendRateLimit } from './send-rate-limit'

/** How long a retried send waits for the first attempt with the same clientId to finish. */
const REPLAY_WAIT_MS = 5_000
/** A claim this old without a message was left by a send that died: a retry takes it over. */
const STALE_CLAIM_MS = 30_000
const BEFORE = /^[1-9]\d{0,8}$/

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The text as stored: trimmed, 1 to 2,000 characters (whitespace alone is no message). */
function readText(text: unknown): string {
  const trimmed = typeof text === 'string' ? text.trim() : ''
  if (trimmed.length === 0 || trimmed.length > CONVERSATION_LIMITS.messageMaxLength) {
    throw new BadRequestError(CONVERSATION_MESSAGES.textLength, 'INVALID_MESSAGE')
  }
  return trimmed
}

/**
 * Messages: sent by a party of an open conversation, numbered in the order the database took
 * them, stored 30 to a bucket. A send writes, in this order: the clientId's claim (when the
 * client sent one); both inboxes in one ordered bulk write (the sender's budget and own list,
 * then the recipient's unread counts, which land only when the budget allowed the message);
 * the message's number and the conversation's last message (one write on the conversation,
 * refused once the request closed, which gives the inboxes' changes back); the message with
 * its message.sent event (one write on its bucket). Without multi-document transactions a
 * crash between them can leave a number without a message (pages skip it) or one unread too
 * many until the next read; never a message nobody is told about.
 */
export function createMessagesService(deps: {
  messages: MessagesRepository
  conversations: ConversationsRepository
  conversationsService: ConversationsService
  inbox: InboxRepository
  users: UserDirectory
  rateLimit: SendRateLimit
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  /**
   * Holds the clientId for this send (null), or answers the message an earlier send with the
   * same clientId stored, waiting a moment if that send is still under way.
   */
  async function claimOrReplay(
    conversation: ConversationDocument,
    senderId: string,
    clientId: string,
  ): Promise<StoredMessage | null> {
    const conversationId = conversation._id
    const key = clientIdKey(conversationId, senderId, clientId)
    const deadline = Date.now() + REPLAY_WAIT_MS
    for (;;) {
      const at = now()
      const claimed = await deps.messages.clientIds.claim({
        _id: key,
        conversationId,
        senderId,
        afterSeq: conversation.seq,
        claimedAt: at,
      })
      if (claimed) return null
      const existing = await deps.messages.clientIds.find(key)
      if (existing) {
        const latest = await deps.conversations.findById(conversationId)
        const lastSeq = latest?.seq ?? conversation.seq
        const stored = await deps.messages.findByClientId(
          conversationId,
          senderId,
          clientId,
          existing.afterSeq ?? 0,
          lastSeq,
        )
        if (stored) return stored
        if (
          at.getTime() - existing.claimedAt.getTime() > STALE_CLAIM_MS &&
          (await deps.messages.clientIds.takeOver(key, existing.claimedAt, at, lastSeq))
        ) {
          return null
        }
      }
      if (Date.now() > deadline) {
        throw new ConflictError(CONVERSATION_MESSAGES.sendInProgress, 'SEND_IN_PROGRESS')
      }
      // Released meanwhile (`existing` gone) claims again at once; otherwise wait for it.
      if (existing) await sleep(100)
    }
  }

  function refuseReadOnly(
    conversation: ConversationDocument,
    cards: Parameters<typeof readOnlyReason>[1],
    blocked = false,
  ) {
    const reason = readOnlyReason(conversation, cards, blocked)
    if (reason) throw new ConflictError(READ_ONLY_MESSAGES[reason], 'READ_ONLY')
  }

  async function store(
    party: { conversation: ConversationDocument; role: PartyRole },
    text: string,
    clientId: string | null,
    context: Context,
  ): Promise<MessageView> {
    const { conversation, role } = party
    const conversationId = conversation._id
    const senderId = context.callerId
    const recipientId = partyId(conversation, otherRole(role))
    const [cards, hidden] = await Promise.all([
      deps.users.find([conversation.requesterId, conversation.otherId]),
      deps.conversationsService.hiddenFrom(senderId),
    ])
    // Either party blocked the other: no message goes either way (docs/blocking.md).
    refuseReadOnly(conversation, cards, hidden.has(recipientId))
    const sentAt = now()
    // Both inboxes in one bulk write: the sender's budget and own list, then the recipient's
    // unread counts, which land only if the budget allowed the message (else 429, nothing
    // written).
    const spent = await deps.rateLimit.spend(senderId, conversationId, sentAt, [
      deps.inbox.messageArrivedUpdate(recipientId, conversationId, sentAt),
    ])
    const recipientCounted = spent.alongsideMatched === 1
    const [allocated, counts] = await Promise.all([
      deps.conversations.allocateMessage(conversationId, {
        senderId,
        text,
        sentAt,
        takenDown: false,
      }),
      // The counts after this message (and any sent in the same moment): message.sent
      // carries them to the recipient's badges.
      recipientCounted ? deps.inbox.counts(recipientId, conversationId) : null,
    ])
    if (!allocated) {
      // The request closed between the check and the numbering: the message is given back
      // to the budget and taken off the recipient's count, and the answer says why.
      await spent.giveBack()
      if (recipientCounted) await deps.inbox.messageWithdrawn(recipientId, conversationId)
      const closed = await deps.conversations.findById(conversationId)
      refuseReadOnly(closed ?? { ...conversation, closedBy: 'request-deleted' }, cards)
      throw new ConflictError(READ_ONLY_MESSAGES['request-deleted'], 'READ_ONLY')
    }
    // The opening's inbox write had not landed: the entry is made now, with this message.
    const recipientCounts =
      counts ?? (await deps.inbox.messageArrived(recipientId, conversationId, sentAt))
    const message: StoredMessage = {
      seq: allocated.seq,
      senderId,
      text,
      sentAt,
      clientId,
      takenDown: false,
    }
    await deps.messages.store(conversationId, message, [
      newEvent('message.sent', {
        aggregateId: conversationId,
        actorId: senderId,
        requestId: context.requestId,
        data: {
          messageId: messageIdOf(conversationId, message.seq),
          conversationId,
          clientId,
          senderId,
          senderName: displayName(cards.get(senderId), allocated.names[role]),
          recipientId,
          postTitle: allocated.postTitle,
          text,
          sentAt: sentAt.toISOString(),
          recipientUnreadCount: recipientCounts.unreadCount,
          recipientUnreadTotal: recipientCounts.unreadTotal,
        },
      }),
    ])
    return messageView(allocated, message)
  }

  return {
    /**
     * POST /api/conversations/:id/messages. `created` is false when the clientId was sent
     * before: the stored message is the answer, and nothing is stored, counted or announced.
     */
    async send(
      conversationId: string,
      body: SendMessageBody,
      context: Context,
    ): Promise<{ message: MessageView; created: boolean }> {
      const text = readText(body.text)
      const senderId = context.callerId
      const clientId = body.clientId ?? null
      // A stranger learns nothing, not even whether a clientId was used: the party check first.
      const party = await deps.conversationsService.partyConversation(conversationId, senderId)
      if (clientId === null) {
        return { message: await store(party, text, null, context), created: true }
      }
      const earlier = await claimOrReplay(party.conversation, senderId, clientId)
      if (earlier) {
        const latest = (await deps.conversations.findById(conversationId)) ?? party.conversation
        return { message: messageView(latest, earlier), created: false }
      }
      try {
        return { message: await store(party, text, clientId, context), created: true }
      } catch (error) {
        // Refused (read-only, too many): the clientId is free for a later try.
        const key = clientIdKey(conversationId, senderId, clientId)
        await deps.messages.clientIds.release(key).catch(() => undefined)
        throw error
      }
    },

    /** GET /api/conversations/:id/messages?before=: newest first, 30 a page, by number. */
    async history(
      conversationId: string,
      callerId: string,
      before: string | undefined,
    ): Promise<MessageHistory> {
      if (before !== undefined && !BEFORE.test(before)) {
        throw new BadRequestError(CONVERSATION_MESSAGES.invalidCursor, 'INVALID_CURSOR')
      }
      const { conversation } = await deps.conversationsService.partyConversation(
        conversationId,
        callerId,
      )
      const upper = Math.min(
        before === undefined ? conversation.seq : Number(before) - 1,
        conversation.seq,
      )
      const from = Math.max(1, upper - CONVERSATION_LIMITS.pageSize + 1)
      const page = await deps.messages.range(conversationId, from, upper)
      return {
        items: page.reverse().map((message) => messageView(conversation, message)),
        nextCursor: upper >= 1 && from > 1 ? String(from) : null,
      }
    },

    /** report.resolved with a take-down: hidden for both parties; the sender is told. */
    async takeDown(messageId: string, actorId: string | null): Promise<void> {
      const target = parseMessageId(messageId)
      if (!target) return
      const conversation = await deps.conversations.findById(target.conversationId)
      const message = conversation && (await deps.messages.find(conversation._id, target.seq))
      const senderRole = conversation && message && roleOf(conversation, message.senderId)
      if (!conversation || !message || !senderRole) return
      await deps.messages.takeDown(conversation._id, target.seq, [
        newEvent('message.taken-down', {
          aggregateId: conversation._id,
          actorId,
          data: {
            messageId,
            conversationId: conversation._id,
            senderId: message.senderId,
            recipientId: partyId(conversation, otherRole(senderRole)),
            postTitle: conversation.postTitle,
          },
        }),
      ])
      await deps.conversations.takeDownLastMessage(conversation._id, target.seq)
    },

    /**
     * user.deleted: in each of the user's conversations their messages' texts are emptied and
     * their name forgotten; their inbox and send counter go. The inbox goes last, so a retry
     * after a crash finds the conversations again.
     */
    async forgetUser(userId: string): Promise<void> {
      const inbox = await deps.inbox.find(userId)
      for (const conversationId of Object.keys(inbox?.conversations ?? {})) {
        const conversation = await deps.conversations.findById(conversationId)
        const role = conversation && roleOf(conversation, userId)
        if (!conversation || !role) continue
        await deps.messages.forgetSender(conversationId, userId, conversation.seq)
        await deps.conversations.forgetParty(conversationId, role, userId)
      }
      await deps.inbox.delete(userId)
    },
  }
}

export type MessagesService = ReturnType<typeof createMessagesService>
