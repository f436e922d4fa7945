import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  updateWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import {
  CLIENT_IDS_COLLECTION,
  LEGACY_CLIENT_IDS_COLLECTION,
  MESSAGE_BUCKETS_COLLECTION,
  bucketId,
  bucketOf,
  messageKey,
  type ClientIdDocument,
  type MessageBucketDocument,
  type StoredMessage,
} from './message-document'

/**
 * Buckets and client ids are read and written by `_id`; the purge of a user's client ids is
 * the one query by other fields (docs/conversations.md).
 */
export const messageIndexes: IndexDefinition[] = [
  {
    collection: MESSAGE_BUCKETS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
  // user.deleted: the purged sender's client ids in one conversation (an inbox has neither
  // field, so only claims are in this index with values).
  {
    collection: CLIENT_IDS_COLLECTION,
    keys: { conversationId: 1, senderId: 1 },
    options: { name: 'by_conversation_sender' },
  },
  {
    collection: LEGACY_CLIENT_IDS_COLLECTION,
    keys: { conversationId: 1, senderId: 1 },
    options: { name: 'by_conversation_sender' },
  },
]

/**
 * How far past its claim a retried send looks for its message: the send takes its number a
 * moment after claiming, so only the other party's sends in that moment (and the sender's own
 * parallel ones, at most the minute's budget) can come between.
 */
const CLIENT_ID_REACH = 60

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export function createMessagesRepository(
  db: Db,
  hooks: { notifyOutbox(target: { collection: string; id: string }): void },
) {
  const buckets = db.collection<MessageBucketDocument>(MESSAGE_BUCKETS_COLLECTION)
  const clientIds = db.collection<ClientIdDocument>(CLIENT_IDS_COLLECTION)
  const legacyClientIds = db.collection<ClientIdDocument>(LEGACY_CLIENT_IDS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }

  const messagesOf = (bucket: MessageBucketDocument | null): StoredMessage[] =>
    Object.values(bucket?.messages ?? {})

  /** Messages `from` to `to` (numbers, both included), oldest first: one read per bucket. */
  async function range(conversationId: string, from: number, to: number): Promise<StoredMessage[]> {
    if (to < 1 || to < from) return []
    const numbers: number[] = []
    for (let bucket = bucketOf(Math.max(from, 1)); bucket <= bucketOf(to); bucket += 1) {
      numbers.push(bucket)
    }
    const found = await Promise.all(
      numbers.map((bucket) =>
        buckets.findOne({ _id: bucketId(conversationId, bucket) }, withoutOutbox),
      ),
    )
    return found
      .flatMap(messagesOf)
      .filter((message) => message.seq >= from && message.seq <= to)
      .sort((a, b) => a.seq - b.seq)
  }

  return {
    range,

    async find(conversationId: string, seq: number): Promise<StoredMessage | null> {
      const bucket = await buckets.findOne(
        { _id: bucketId(conversationId, bucketOf(seq)) },
        withoutOutbox,
      )
      return bucket?.messages?.[messageKey(seq)] ?? null
    },

    /**
     * The message `clientId` of `senderId` became, among messages `afterSeq + 1` to `upTo`
     * (at most `CLIENT_ID_REACH` of them: two or three bucket reads), or null.
     */
    async findByClientId(
      conversationId: string,
      senderId: string,
      clientId: string,
      afterSeq: number,
      upTo: number,
    ): Promise<StoredMessage | null> {
      const candidates = await range(
        conversationId,
        afterSeq + 1,
        Math.min(upTo, afterSeq + CLIENT_ID_REACH),
      )
      return (
        candidates.find(
          (message) => message.senderId === senderId && message.clientId === clientId,
        ) ?? null
      )
    },

    /**
     * Stores message `seq` with its events in its bucket (made by the first message), unless
     * a message has that number already: the same message stored by a retry of a slow send
     * (the claim's recorded number), whose copy and event stand. The stored message is the
     * answer in both cases.
     */
    async store(
      conversationId: string,
      message: StoredMessage,
      events: DomainEvent[],
    ): Promise<{ stored: boolean; message: StoredMessage }> {
      const bucket = bucketOf(message.seq)
      const id = bucketId(conversationId, bucket)
      const path = `messages.${messageKey(message.seq)}`
      for (let attempt = 0; ; attempt += 1) {
        try {
          // The filter matches no bucket that has the number: an upsert then fails with a
          // duplicate key, and nothing (message or event) is written twice.
          await buckets.updateOne(
            { _id: id, [path]: { $exists: false } },
            updateWithEvents<MessageBucketDocument>(
              { $set: { [path]: message }, $setOnInsert: { conversationId, bucket } },
              events,
            ),
            { upsert: true },
          )
          break
        } catch (error) {
          if (!isDuplicateKey(error)) throw error
          const existing = await buckets.findOne({ _id: id }, withoutOutbox)
          const there = existing?.messages?.[messageKey(message.seq)]
          if (there) return { stored: false, message: there }
          // Two first messages of a bucket at once: the loser updates the winner's bucket.
          if (attempt >= 2) throw error
        }
      }
      hooks.notifyOutbox({ collection: MESSAGE_BUCKETS_COLLECTION, id })
      return { stored: true, message }
    },

    /** Hides message `seq` for good; false when it was hidden already (nothing announced). */
    async takeDown(conversationId: string, seq: number, events: DomainEvent[]): Promise<boolean> {
      const id = bucketId(conversationId, bucketOf(seq))
      const path = `messages.${messageKey(seq)}.takenDown`
      const { modifiedCount } = await buckets.updateOne(
        { _id: id, [path]: false },
        updateWithEvents<MessageBucketDocument>({ $set: { [path]: true } }, events),
      )
      if (modifiedCount === 1) hooks.notifyOutbox({ collection: MESSAGE_BUCKETS_COLLECTION, id })
      return modifiedCount === 1
    },

    /** user.deleted: the sender's texts and client ids in messages 1 to `lastSeq` are emptied. */
    async forgetSender(conversationId: string, senderId: string, lastSeq: number): Promise<void> {
      for (let bucket = 0; bucket <= bucketOf(lastSeq); bucket += 1) {
        const id = bucketId(conversationId, bucket)
        const found = await buckets.findOne({ _id: id }, withoutOutbox)
        const theirs = messagesOf(found).filter((message) => message.senderId === senderId)
        if (theirs.length === 0) continue
        const blanked = Object.fromEntries(
          theirs.flatMap((message) => [
            [`messages.${messageKey(message.seq)}.text`, ''],
            [`messages.${messageKey(message.seq)}.clientId`, null],
          ]),
        )
        await buckets.updateOne({ _id: id }, { $set: blanked })
      }
      await clientIds.deleteMany({ conversationId, senderId })
      await legacyClientIds.deleteMany({ conversationId, senderId })
    },

    clientIds: {
      find: (key: string) => clientIds.findOne({ _id: key }),

      /** Claims the client id for a send; false when another send holds it. */
      async claim(claim: ClientIdDocument): Promise<boolean> {
        try {
          await clientIds.insertOne(claim)
          return true
        } catch (error) {
          if (isDuplicateKey(error)) return false
          throw error
        }
      },

      /**
       * Takes over a claim whose send died before its message was numbered; false if someone
       * else did, or the number was recorded meanwhile (the message is then stored under it).
       */
      async takeOver(key: string, claimedAt: Date, now: Date, afterSeq: number): Promise<boolean> {
        const { modifiedCount } = await clientIds.updateOne(
          { _id: key, claimedAt, seq: { $exists: false } },
          { $set: { claimedAt: now, afterSeq } },
        )
        return modifiedCount === 1
      },

      release: async (key: string) => {
        await clientIds.deleteOne({ _id: key })
      },
    },
  }
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>
