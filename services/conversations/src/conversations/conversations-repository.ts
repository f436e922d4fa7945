import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertWithEvents,
  updateWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import {
  CONVERSATIONS_COLLECTION,
  POST_CONVERSATIONS_COLLECTION,
  type ConversationDocument,
  type LastMessage,
  type PartyRole,
  type PostConversationsDocument,
  type RequestClosure,
} from './conversation-document'

/**
 * Every read and write of a conversation addresses it by `_id` (docs/conversations.md lists
 * each query); the only other index is the outbox relay's sweep for pending events.
 */
export const conversationIndexes: IndexDefinition[] = [
  {
    collection: CONVERSATIONS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export function createConversationsRepository(
  db: Db,
  hooks: { notifyOutbox(target: { collection: string; id: string; outbox?: DomainEvent[] }): void },
) {
  const conversations = db.collection<ConversationDocument>(CONVERSATIONS_COLLECTION)
  const byPost = db.collection<PostConversationsDocument>(POST_CONVERSATIONS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }

  return {
    findById: (id: string) => conversations.findOne({ _id: id }, withoutOutbox),

    /** Stores a new conversation with its event; false when it was already there. */
    async insert(conversation: ConversationDocument, events: DomainEvent[]): Promise<boolean> {
      try {
        await conversations.insertOne(insertWithEvents(conversation, events))
      } catch (error) {
        if (isDuplicateKey(error)) return false
        throw error
      }
      hooks.notifyOutbox({
        collection: CONVERSATIONS_COLLECTION,
        id: conversation._id,
        outbox: events,
      })
      return true
    },

    /** Remembers that the post's requests opened this conversation (post.deleted closes it). */
    async addToPost(postId: string, conversationId: string): Promise<void> {
      for (let attempt = 0; ; attempt += 1) {
        try {
          await byPost.updateOne(
            { _id: postId },
            { $addToSet: { conversationIds: conversationId } },
            { upsert: true },
          )
          return
        } catch (error) {
          // Two requests of one post opened at once: the loser of the insert updates.
          if (attempt < 2 && isDuplicateKey(error)) continue
          throw error
        }
      }
    },

    async conversationsOfPost(postId: string): Promise<string[]> {
      return (await byPost.findOne({ _id: postId }))?.conversationIds ?? []
    },

    /**
     * Takes the next message number with `$inc` and makes the message the last one, in one
     * write that only lands while the request is open; null when it was closed meanwhile. The
     * path of a send whose compare-and-set lost to another message (messages/send-write.ts).
     */
    async allocateMessage(id: string, lastMessage: LastMessage) {
      // No projection: FerretDB's findAndModify has none (service-kit outbox-fields.ts).
      const after = await conversations.findOneAndUpdate(
        { _id: id, closedBy: null },
        {
          $inc: { seq: 1 },
          $set: { lastMessage },
          $max: { lastActivityAt: lastMessage.sentAt },
        },
        { returnDocument: 'after' },
      )
      if (after) {
        delete after.outbox
        delete after.outboxPending
      }
      return after
    },

    /**
     * Takes the next number for the system line `lineId` (the id of the event it tells),
     * once: a redelivered event finds its id among `systemLines` and gets null. The last
     * message, the activity time and the inboxes stay as they are (a system line is no one's
     * message; the notification tells the other side).
     */
    async allocateSystemLine(id: string, lineId: string) {
      const after = await conversations.findOneAndUpdate(
        { _id: id, systemLines: { $ne: lineId } },
        { $inc: { seq: 1 }, $push: { systemLines: lineId } },
        { returnDocument: 'after' },
      )
      if (after) {
        delete after.outbox
        delete after.outboxPending
      }
      return after
    },

    /**
     * The reader has read up to message `seq`: only ever moves forward, and carries the
     * message.read event in the same write.
     */
    async markRead(id: string, role: PartyRole, seq: number, events: DomainEvent[]) {
      await conversations.updateOne(
        { _id: id },
        updateWithEvents<ConversationDocument>({ $max: { [`lastRead.${role}`]: seq } }, events),
      )
      hooks.notifyOutbox({ collection: CONVERSATIONS_COLLECTION, id })
    },

    /** The request is gone: the first closure stays (withdrawn is not turned into deleted). */
    async close(id: string, closure: RequestClosure): Promise<void> {
      await conversations.updateOne({ _id: id, closedBy: null }, { $set: { closedBy: closure } })
    },

    /** A moderator took down message `seq`: if it is the last one, the list shows so too. */
    async takeDownLastMessage(id: string, seq: number): Promise<void> {
      await conversations.updateOne({ _id: id, seq }, { $set: { 'lastMessage.takenDown': true } })
    },

    /** user.deleted: the purged party's name snapshot and last message text go. */
    async forgetParty(id: string, role: PartyRole, userId: string): Promise<void> {
      await conversations.updateOne({ _id: id }, { $set: { [`names.${role}`]: '' } })
      await conversations.updateOne(
        { _id: id, 'lastMessage.senderId': userId },
        { $set: { 'lastMessage.text': '' } },
      )
    },
  }
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>
