import type { MessageHistory, MessageView, SendMessageBody } from '@marketplace/contracts/api'
import {
  CONVERSATION_LIMITS,
  CONVERSATION_MESSAGES,
  READ_ONLY_MESSAGES,
} from '@marketplace/contracts/marketplace'
import {
  BadRequestError,
  ConflictError,
  TooManyRequestsError,
  newEvent,
} from '@marketplace/service-kit'
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
import {
  clientIdKey,
  messageIdOf,
  parseMessageId,
  type ClientIdDocument,
  type StoredMessage,
} from './message-document'
import { messageView } from './message-views'
import type { MessagesRepository } from './messages-repository'
import { ClaimHeldError, ConversationClosedError, type SendWrite } from './send-write'

/** How long a retried send waits for the first attempt with the same clientId to finish. */
const REPLAY_WAIT_MS = 5_000
/** A claim this old without a message was left by a send that died: a retry takes it over. */
const STALE_CLAIM_MS = 30_000
const BEFORE = /^[1-9]\d{0,8}$/

/** A send refused for the conversation's state or the sender's budget (not a fault). */
const isRefusal = (error: unknown) =>
  error instanceof ConflictError || error instanceof TooManyRequestsError

/** A retry took this send's claim over before the send recorded its number on it. */
class ClaimLostError extends Error {
  constructor() {
    super('a retry took the clientId over')
  }
}

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
 * them, stored 30 to a bucket. A send makes two writes, and the outbox relay a third: one
 * ordered bulk write on the conversations' collection (send-write.ts: the clientId's claim,
 * the sender's budget and own list, the message's number and the conversation's last message,
 * the recipient's unread counts, each landing only when the ones before it did), then the
 * message with its message.sent event in its bucket; the relay clears the bucket's outbox
 * once it published the event. Without multi-document transactions a crash between the two
 * can leave a number without a message (pages skip it) and one unread too many until the
 * next read; never a message nobody is told about.
 */
export function createMessagesService(deps: {
  messages: MessagesRepository
  conversations: ConversationsRepository
  conversationsService: ConversationsService
  inbox: InboxRepository
  users: UserDirectory
  sendWrite: SendWrite
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())

  /**
   * A send found its clientId held (its claim in the send's bulk write was refused, or taken
   * over from it): answers
   * - the message the earlier send stored (waiting a moment if that send is still under way);
   * - `numbered` when the earlier send numbered its message but has not stored it within the
   *   wait (slow, or dead): this send stores the message under that same number, so however
   *   late the earlier one wakes, one copy exists (the bucket keeps the first);
   * - `claimed` when this send now holds the id: released meanwhile, or left unnumbered by a
   *   send that died (stale), taken over so that the earlier send, if it wakes, stores nothing;
   * - null when no claim exists (`claimIfFree` false: nothing to replay).
   */
  async function replayOrClaim(
    conversation: ConversationDocument,
    senderId: string,
    clientId: string,
    claimIfFree = true,
  ): Promise<
    StoredMessage | { claimed: Date } | { numbered: { seq: number; sentAt: Date } } | null
  > {
    const conversationId = conversation._id
    const key = clientIdKey(conversationId, senderId, clientId)
    const deadline = Date.now() + REPLAY_WAIT_MS
    for (;;) {
      const at = now()
      const existing = await deps.messages.clientIds.find(key)
      if (!existing && !claimIfFree) return null
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
        if (existing.seq !== undefined && Date.now() > deadline) {
          return { numbered: { seq: existing.seq, sentAt: existing.sentAt ?? existing.claimedAt } }
        }
        if (
          existing.seq === undefined &&
          at.getTime() - existing.claimedAt.getTime() > STALE_CLAIM_MS &&
          (await deps.messages.clientIds.takeOver(key, existing.claimedAt, at, lastSeq))
        ) {
          return { claimed: at }
        }
      } else if (
        // Released meanwhile: claimed on its own (the rare path pays a write of its own).
        await deps.messages.clientIds.claim({
          _id: key,
          conversationId,
          senderId,
          afterSeq: conversation.seq,
          claimedAt: at,
        })
      ) {
        return { claimed: at }
      }
      if (Date.now() > deadline && existing?.seq === undefined) {
        throw new ConflictError(CONVERSATION_MESSAGES.sendInProgress, 'SEND_IN_PROGRESS')
      }
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

  /**
   * The message's own write, with its message.sent event: stored under its number, or the
   * copy already there (a retry of a slow send stored it first) is the answer.
   */
  async function publish(
    conversation: ConversationDocument,
    role: PartyRole,
    message: StoredMessage,
    senderName: string,
    recipientCounts: { unreadCount: number; unreadTotal: number },
    context: Context,
  ): Promise<{ message: MessageView; created: boolean }> {
    const conversationId = conversation._id
    const recipientId = partyId(conversation, otherRole(role))
    const written = await deps.messages.store(conversationId, message, [
      newEvent('message.sent', {
        aggregateId: conversationId,
        actorId: message.senderId,
        requestId: context.requestId,
        data: {
          messageId: messageIdOf(conversationId, message.seq),
          conversationId,
          clientId: message.clientId,
          senderId: message.senderId,
          senderName,
          recipientId,
          postTitle: conversation.postTitle,
          text: message.text,
          sentAt: message.sentAt.toISOString(),
          recipientUnreadCount: recipientCounts.unreadCount,
          recipientUnreadTotal: recipientCounts.unreadTotal,
        },
      }),
    ])
    return { message: messageView(conversation, written.message), created: written.stored }
  }

  /**
   * Stores a message. `hold` is the clientId's claim (null: no clientId): `pending` puts the
   * claim first in the send's bulk write, and becomes false once this send holds it.
   */
  async function store(
    party: { conversation: ConversationDocument; role: PartyRole },
    text: string,
    clientId: string | null,
    context: Context,
    hold: { key: string; claimedAt: Date; pending: boolean } | null = null,
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
    if (hold?.pending) hold.claimedAt = sentAt
    // One bulk write (send-write.ts): the clientId's claim, the sender's budget and own list,
    // the message's number and the last message, the number recorded on the claim, the
    // recipient's unread counts; each lands only if the ones before did (a held claim:
    // nothing written; budget spent: 429, the claim freed by the caller).
    const outcome = { claimed: false }
    const claimed: ClientIdDocument | null =
      hold?.pending && clientId !== null
        ? { _id: hold.key, conversationId, senderId, afterSeq: conversation.seq, claimedAt: sentAt }
        : null
    let written
    try {
      written = await deps.sendWrite.write(
        {
          senderId,
          conversation,
          lastMessage: { senderId, text, sentAt, takenDown: false },
          claim: claimed,
          hold: hold && { key: hold.key, claimedAt: hold.claimedAt },
          recipient: deps.inbox.messageArrivedUpdate(
            recipientId,
            conversationId,
            sentAt,
          ) as Parameters<SendWrite['write']>[0]['recipient'],
          numberAlone: () =>
            deps.conversations.allocateMessage(conversationId, {
              senderId,
              text,
              sentAt,
              takenDown: false,
            }),
          reread: () => deps.conversations.findById(conversationId),
        },
        outcome,
      )
    } catch (error) {
      if (!(error instanceof ConversationClosedError)) throw error
      // The request closed between the check and the numbering: nothing of the message
      // landed (its budget given back) and the answer says why.
      refuseReadOnly(error.conversation ?? { ...conversation, closedBy: 'request-deleted' }, cards)
      throw new ConflictError(READ_ONLY_MESSAGES['request-deleted'], 'READ_ONLY')
    } finally {
      if (outcome.claimed && hold) hold.pending = false
    }
    // A retry took the claim over while this send was slow: it stores the message itself.
    if (written.lost) throw new ClaimLostError()
    const allocated = written.conversation
    // The counts after this message (and any sent in the same moment): message.sent carries
    // them to the recipient's badges.
    const counts = written.recipientCounted
      ? await deps.inbox.counts(recipientId, conversationId)
      : null
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
    const senderName = displayName(cards.get(senderId), allocated.names[role])
    return (await publish(allocated, role, message, senderName, recipientCounts, context)).message
  }

  /**
   * Stores the message of a send that numbered it (the number recorded on its claim) but had
   * not stored it when its retry came: under that number, with the recipient's counts as
   * they are (the numbering send counted the message already).
   */
  async function storeNumbered(
    party: { conversation: ConversationDocument; role: PartyRole },
    text: string,
    clientId: string,
    numbered: { seq: number; sentAt: Date },
    context: Context,
  ): Promise<{ message: MessageView; created: boolean }> {
    const conversationId = party.conversation._id
    const latest = (await deps.conversations.findById(conversationId)) ?? party.conversation
    const recipientId = partyId(latest, otherRole(party.role))
    const [cards, recipientCounts] = await Promise.all([
      deps.users.find([latest.requesterId, latest.otherId]),
      deps.inbox.counts(recipientId, conversationId),
    ])
    const message: StoredMessage = {
      seq: numbered.seq,
      senderId: context.callerId,
      text,
      sentAt: numbered.sentAt,
      clientId,
      takenDown: false,
    }
    const senderName = displayName(cards.get(context.callerId), latest.names[party.role])
    return publish(latest, party.role, message, senderName, recipientCounts, context)
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
      const replay = async (earlier: StoredMessage) => {
        const latest = (await deps.conversations.findById(conversationId)) ?? party.conversation
        return { message: messageView(latest, earlier), created: false }
      }
      const key = clientIdKey(conversationId, senderId, clientId)
      const hold = { key, claimedAt: now(), pending: true }
      for (;;) {
        try {
          return {
            message: await store(party, text, clientId, context, hold),
            created: true,
          }
        } catch (error) {
          if (error instanceof ClaimHeldError || error instanceof ClaimLostError) {
            // An earlier send holds the id (or took it from this one): its message is the
            // answer, or its number is where this send stores the message, or this send takes
            // the id over (released, or left unnumbered by a send that died).
            const earlier = await replayOrClaim(party.conversation, senderId, clientId)
            if (earlier === null) continue
            if ('numbered' in earlier) {
              return storeNumbered(party, text, clientId, earlier.numbered, context)
            }
            if ('claimed' in earlier) {
              hold.claimedAt = earlier.claimed
              hold.pending = false
              continue
            }
            return replay(earlier)
          }
          // Refused (read-only, blocked, too many): the clientId is free for a later try.
          if (!hold.pending) {
            await deps.messages.clientIds.release(key).catch(() => undefined)
          } else if (isRefusal(error)) {
            // Refused before the claim was sent: a retry of a message stored before the
            // conversation closed or the budget ran out still gets the stored message.
            const earlier = await replayOrClaim(party.conversation, senderId, clientId, false)
            if (earlier !== null && 'claimed' in earlier) {
              await deps.messages.clientIds.release(key).catch(() => undefined)
            } else if (earlier !== null && 'numbered' in earlier) {
              return storeNumbered(party, text, clientId, earlier.numbered, context)
            } else if (earlier !== null) {
              return replay(earlier)
            }
          }
          throw error
        }
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
