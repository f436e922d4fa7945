import type {
  ConversationList,
  ConversationRead,
  ConversationRequestKind,
  ConversationView,
  UnreadTotal,
} from '@marketplace/contracts/api'
import { CONVERSATION_LIMITS, CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { BadRequestError, NotFoundError, newEvent } from '@marketplace/service-kit'
import type { InboxRepository } from '../inbox/inbox-repository'
import type { UserDirectory } from '../users/user-directory'
import {
  conversationIdOf,
  conversationIdsOfRequest,
  isConversationId,
  otherRole,
  partyId,
  roleOf,
  type ConversationDocument,
  type PartyRole,
  type RequestClosure,
} from './conversation-document'
import { conversationView } from './conversation-views'
import type { ConversationsRepository } from './conversations-repository'

export interface Context {
  callerId: string
  requestId?: string
}

/** A request that opens a conversation, as job-request.created or people-request.created tell it. */
export interface OpeningRequest {
  kind: ConversationRequestKind
  requestId: string
  postId: string
  postTitle: string
  requesterId: string
  requesterName: string
  otherId: string
  otherName: string
  openedAt: Date
  actorId: string | null
}

const LIST_CURSOR = /^(\d{1,15})\.(.{1,64})$/

/**
 * Conversations: one per request, between its requester and the other side,
 * opened by the request's event. Only the two parties see it: for anyone else it does not
 * exist (404, the same answer as for an unknown id).
 */
export function createConversationsService(deps: {
  conversations: ConversationsRepository
  inbox: InboxRepository
  users: UserDirectory
  /** The people a user blocked or was blocked by (docs/blocking.md). */
  hiddenFrom?: (userId: string) => Promise<ReadonlySet<string>>
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  const hiddenFrom = deps.hiddenFrom ?? (async () => new Set<string>())

  /** The conversation if the caller is one of its parties; 404 otherwise. */
  async function partyConversation(
    conversationId: string,
    callerId: string,
  ): Promise<{ conversation: ConversationDocument; role: PartyRole }> {
    const conversation = isConversationId(conversationId)
      ? await deps.conversations.findById(conversationId)
      : null
    const role = conversation && roleOf(conversation, callerId)
    if (!conversation || !role) {
      throw new NotFoundError(CONVERSATION_MESSAGES.notFound, 'CONVERSATION_NOT_FOUND')
    }
    return { conversation, role }
  }

  const partiesOf = (conversation: ConversationDocument) => [
    conversation.requesterId,
    conversation.otherId,
  ]

  async function viewOf(conversation: ConversationDocument, viewerId: string) {
    const [cards, inbox, hidden] = await Promise.all([
      deps.users.find(partiesOf(conversation)),
      deps.inbox.find(viewerId),
      hiddenFrom(viewerId),
    ])
    return conversationView(
      conversation,
      viewerId,
      cards,
      inbox?.conversations?.[conversation._id],
      hidden,
    )
  }

  /** Opens the request's conversation; a replayed event opens nothing new. */
  async function open(request: OpeningRequest): Promise<void> {
    const id = conversationIdOf(request.kind, request.requestId)
    const conversation: ConversationDocument = {
      _id: id,
      requestKind: request.kind,
      requestId: request.requestId,
      postId: request.postId,
      postTitle: request.postTitle,
      requesterId: request.requesterId,
      otherId: request.otherId,
      names: { requester: request.requesterName, other: request.otherName },
      seq: 0,
      lastRead: { requester: 0, other: 0 },
      lastMessage: null,
      lastActivityAt: request.openedAt,
      closedBy: null,
      openedAt: request.openedAt,
    }
    await deps.conversations.insert(conversation, [
      newEvent('conversation.opened', {
        aggregateId: id,
        actorId: request.actorId,
        data: {
          conversationId: id,
          requestKind: request.kind,
          requestId: request.requestId,
          postId: request.postId,
          postTitle: request.postTitle,
          requesterId: request.requesterId,
          otherId: request.otherId,
          openedAt: request.openedAt.toISOString(),
        },
      }),
    ])
    // Written after the conversation, and again by a replay: each is idempotent, so a crash
    // between them is repaired by the event's redelivery.
    await deps.conversations.addToPost(request.postId, id)
    await deps.inbox.add(request.requesterId, id, request.openedAt)
    await deps.inbox.add(request.otherId, id, request.openedAt)
  }

  function parseListCursor(cursor: string | undefined) {
    if (cursor === undefined) return null
    const match = LIST_CURSOR.exec(cursor)
    if (!match) throw new BadRequestError(CONVERSATION_MESSAGES.invalidCursor, 'INVALID_CURSOR')
    return { at: Number(match[1]), id: match[2]! }
  }

  return {
    partyConversation,
    open,
    hiddenFrom,

    /** The request was withdrawn or deleted: read-only from now on. */
    async closeRequest(kind: ConversationRequestKind, requestId: string, closure: RequestClosure) {
      await deps.conversations.close(conversationIdOf(kind, requestId), closure)
    },

    /** post.deleted: the jobs service deleted every request of the post with it. */
    async closePost(postId: string): Promise<void> {
      for (const id of await deps.conversations.conversationsOfPost(postId)) {
        await deps.conversations.close(id, 'request-deleted')
      }
    },

    /** GET /api/conversations: newest activity first, 30 a page, with the unread total. */
    async list(callerId: string, cursor: string | undefined): Promise<ConversationList> {
      const after = parseListCursor(cursor)
      const inbox = await deps.inbox.find(callerId)
      const entries = Object.entries(inbox?.conversations ?? {})
        .map(([id, entry]) => ({ id, at: entry.lastActivityAt.getTime(), entry }))
        .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .filter((row) => !after || row.at < after.at || (row.at === after.at && row.id < after.id))
      const page = entries.slice(0, CONVERSATION_LIMITS.pageSize)
      const conversations = await Promise.all(
        page.map((row) => deps.conversations.findById(row.id)),
      )
      const shown = conversations.filter(
        (conversation): conversation is ConversationDocument =>
          conversation !== null && roleOf(conversation, callerId) !== null,
      )
      const [cards, hidden] = await Promise.all([
        deps.users.find(shown.flatMap(partiesOf)),
        hiddenFrom(callerId),
      ])
      const items: ConversationView[] = shown.map((conversation) =>
        conversationView(
          conversation,
          callerId,
          cards,
          inbox?.conversations?.[conversation._id],
          hidden,
        ),
      )
      const last = page.at(-1)
      return {
        items,
        nextCursor: last && entries.length > page.length ? `${last.at}.${last.id}` : null,
        unreadTotal: inbox?.unreadTotal ?? 0,
      }
    },

    async unreadTotal(callerId: string): Promise<UnreadTotal> {
      return { unreadTotal: (await deps.inbox.find(callerId))?.unreadTotal ?? 0 }
    },

    async view(conversationId: string, callerId: string): Promise<ConversationView> {
      const { conversation } = await partyConversation(conversationId, callerId)
      return viewOf(conversation, callerId)
    },

    /** GET /api/conversations/by-request/:requestId: the request's conversation, either kind. */
    async byRequest(requestId: string, callerId: string): Promise<ConversationView> {
      const found = await Promise.all(
        conversationIdsOfRequest(requestId).map((id) => deps.conversations.findById(id)),
      )
      const conversation = found.find((c) => c !== null && roleOf(c, callerId) !== null)
      if (!conversation) {
        throw new NotFoundError(CONVERSATION_MESSAGES.notFound, 'CONVERSATION_NOT_FOUND')
      }
      return viewOf(conversation, callerId)
    },

    /**
     * POST /api/conversations/:id/read: everything up to now is read. The inbox's count goes
     * first, then the conversation's read mark moves to the newest message with the
     * message.read event ("Seen", the other tabs' badges). Nothing changed, nothing said.
     */
    async markRead(conversationId: string, context: Context): Promise<ConversationRead> {
      const { role } = await partyConversation(conversationId, context.callerId)
      const counts = await deps.inbox.markRead(context.callerId, conversationId)
      const latest = await deps.conversations.findById(conversationId)
      if (latest && (counts.cleared > 0 || latest.lastRead[role] < latest.seq)) {
        const readAt = now()
        await deps.conversations.markRead(conversationId, role, latest.seq, [
          newEvent('message.read', {
            aggregateId: conversationId,
            actorId: context.callerId,
            requestId: context.requestId,
            data: {
              conversationId,
              readerId: context.callerId,
              otherId: partyId(latest, otherRole(role)),
              readAt: readAt.toISOString(),
              readerUnreadTotal: counts.unreadTotal,
            },
          }),
        ])
      }
      return { unreadCount: counts.unreadCount, unreadTotal: counts.unreadTotal }
    },
  }
}

export type ConversationsService = ReturnType<typeof createConversationsService>
