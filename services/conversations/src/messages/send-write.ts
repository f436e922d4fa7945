import { randomUUID } from 'node:crypto'
import {
  MongoBulkWriteError,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Db,
  type Document,
} from 'mongodb'
import {
  CONVERSATIONS_COLLECTION,
  type ConversationDocument,
  type LastMessage,
} from '../conversations/conversation-document'
import type { ClientIdDocument } from './message-document'
import type { SendRateLimit } from './send-rate-limit'

/** The budget's window moving under a send this often means something else is wrong. */
const MAX_ATTEMPTS = 20

/**
 * The claim sent first in the bulk write was refused: another send holds that clientId.
 * Nothing of the bulk landed (the ordered write stops at its first error).
 */
export class ClaimHeldError extends Error {
  constructor() {
    super('the clientId is held by another send')
  }
}

/** The conversation was closed (or is gone) when the send came to number its message. */
export class ConversationClosedError extends Error {
  constructor(readonly conversation: ConversationDocument | null) {
    super('the conversation closed before the message was numbered')
  }
}

export interface SendWriteInput {
  senderId: string
  /** The conversation as read by this send: its `seq` is the number the write expects. */
  conversation: ConversationDocument
  lastMessage: LastMessage
  /** The clientId's claim, or null (no clientId, or this send holds it already). */
  claim: ClientIdDocument | null
  /**
   * The claim this send holds or is making (null: no clientId): the number is recorded on it
   * in the write that numbers the message, guarded by `claimedAt`, so a send whose claim a
   * retry took over learns it (`lost`) before it stores anything.
   */
  hold: { key: string; claimedAt: Date } | null
  /** The recipient's unread counts (matches nothing while their inbox entry is missing). */
  recipient: AnyBulkWriteOperation<Document>
  /**
   * Numbers the message with `$inc` in a write of its own (null: the request closed): the
   * path of a send whose compare-and-set lost to another message.
   */
  numberAlone(): Promise<ConversationDocument | null>
  /** Reads the conversation (after a refused number: closed, or gone). */
  reread(): Promise<ConversationDocument | null>
}

export interface SendWritten {
  /** The conversation after the write: `seq` is this message's number. */
  conversation: ConversationDocument
  recipientCounted: boolean
  /**
   * A retry took this send's claim over before the number was recorded on it: the retry
   * stores the message under a number of its own, so this send must store nothing (its
   * number stays empty, which pages skip).
   */
  lost: boolean
}

/**
 * A message send's one write command, before the message's own write in its bucket: an
 * ordered bulk write on the `conversations` collection, which holds the conversations, the
 * parties' inboxes and the clientId claims for this reason. In this order, each landing only
 * when every one before it did (each guarded update is an upsert, so a guard that no longer
 * holds fails with a duplicate key and the ordered write stops there):
 *
 * 1. the clientId's claim (held by another send: nothing lands, ClaimHeldError);
 * 2. the sender's budget and own list (spent: 429 before anything is sent);
 * 3. the message's number and the conversation's last message: a compare-and-set on the
 *    number this send read, and only while the request is open (another message numbered
 *    first: the number is taken with `$inc` in a write of its own, and the recipient's counts
 *    in another; closed: the budget is given back, ConversationClosedError);
 * 4. the number recorded on the clientId's claim, while the claim is still this send's (a
 *    retry that took it over meanwhile: nothing recorded, and the send stores nothing, `lost`);
 * 5. the recipient's unread counts.
 *
 * What landed before a failed operation is not sent again. The local server's error names
 * neither the failed operation nor what landed, so each fallible operation records a key
 * unique to the attempt (the claim in itself, the budget in its window) and a failure reads
 * them back: the claim's and the budget's landing say which one failed. `outcome` says what
 * this send holds when it throws: the claim (the caller frees it on a refusal).
 */
export function createSendWrite(db: Db, rateLimit: SendRateLimit) {
  const collection = db.collection<Document>(CONVERSATIONS_COLLECTION)

  const isDuplicateKey = (error: unknown) =>
    (error instanceof MongoBulkWriteError || error instanceof MongoServerError) &&
    error.code === 11000

  /**
   * The claim as an upsert whose filter no stored claim matches (every claim has
   * `claimedAt`), so a held id fails with a duplicate key and nothing after it lands.
   */
  function claiming(claim: ClientIdDocument, attempt: string): AnyBulkWriteOperation<Document> {
    const { _id, ...fields } = claim
    return {
      updateOne: {
        filter: { _id: _id as never, claimedAt: { $exists: false } },
        update: { $set: { ...fields, attempt } },
        upsert: true,
      },
    }
  }

  /**
   * Records the message's number on the claim this send holds: matches nothing when a retry
   * took the claim over (a new `claimedAt`) or a number is there already.
   */
  function confirming(
    hold: { key: string; claimedAt: Date },
    seq: number,
    sentAt: Date,
  ): AnyBulkWriteOperation<Document> {
    return {
      updateOne: {
        filter: { _id: hold.key as never, claimedAt: hold.claimedAt, seq: { $exists: false } },
        update: { $set: { seq, sentAt } },
      },
    }
  }

  /** Whether the number `seq` is the one recorded on the held claim. */
  async function confirmed(hold: { key: string; claimedAt: Date }, seq: number) {
    const stored = await collection.findOne(
      { _id: hold.key as never },
      { projection: { claimedAt: 1, seq: 1 } },
    )
    return stored?.seq === seq && stored.claimedAt?.getTime() === hold.claimedAt.getTime()
  }

  async function claimLanded(claim: ClientIdDocument, attempt: string): Promise<boolean> {
    const stored = await collection.findOne(
      { _id: claim._id as never },
      { projection: { attempt: 1 } },
    )
    return stored?.attempt === attempt
  }

  function numbering(
    conversation: ConversationDocument,
    lastMessage: LastMessage,
  ): AnyBulkWriteOperation<Document> {
    return {
      updateOne: {
        filter: { _id: conversation._id as never, seq: conversation.seq, closedBy: null },
        update: {
          $set: { seq: conversation.seq + 1, lastMessage },
          $max: { lastActivityAt: lastMessage.sentAt },
        },
        upsert: true,
      },
    }
  }

  return {
    async write(
      input: SendWriteInput,
      outcome: { claimed: boolean } = { claimed: false },
    ): Promise<SendWritten> {
      const { senderId, lastMessage } = input
      const conversationId = input.conversation._id
      const conversation = input.conversation
      let claim = input.claim
      let spent: Date | null = null
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const key = randomUUID()
        const budget: Awaited<ReturnType<SendRateLimit['budget']>> | null =
          spent === null
            ? await rateLimit.budget(senderId, conversationId, lastMessage.sentAt, key)
            : null
        const operations: AnyBulkWriteOperation<Document>[] = []
        if (claim) operations.push(claiming(claim, key))
        if (budget) operations.push(budget.update as AnyBulkWriteOperation<Document>)
        operations.push(numbering(conversation, lastMessage))
        // Must land (each fails the ordered write otherwise) before the two that may not.
        const guarded = operations.length
        const seq = conversation.seq + 1
        if (input.hold) operations.push(confirming(input.hold, seq, lastMessage.sentAt))
        operations.push(input.recipient)
        try {
          const result = await collection.bulkWrite(operations, { ordered: true })
          if (claim) outcome.claimed = true
          // Every guarded operation landed (matched or inserted): what is left over is the
          // number's record on the claim and the recipient's counts, each 0 or 1.
          const extra = result.matchedCount + result.upsertedCount - guarded
          let lost = false
          let recipientCounted = extra === 1
          if (input.hold) {
            // Both landed, neither, or one: the claim says which (a takeover is rare).
            lost = extra === 0 || (extra === 1 && !(await confirmed(input.hold, seq)))
            recipientCounted = extra === 2 || (extra === 1 && !lost)
          }
          return {
            conversation: {
              ...conversation,
              seq,
              lastMessage,
              lastActivityAt:
                conversation.lastActivityAt > lastMessage.sentAt
                  ? conversation.lastActivityAt
                  : lastMessage.sentAt,
            },
            recipientCounted,
            lost,
          }
        } catch (error) {
          if (!isDuplicateKey(error)) throw error
          // Which guard failed: the first operation that did not land.
          if (claim) {
            if (!(await claimLanded(claim, key))) throw new ClaimHeldError()
            outcome.claimed = true
            claim = null
          }
          if (budget) {
            // The window moved under the budget's update: read it again.
            if (!(await rateLimit.landed(senderId, key))) continue
            spent = budget.windowStart
          }
          // The number moved (another message came first) or the request closed. Rather than
          // a compare-and-set again (parallel sends in one conversation would each lose many
          // times), the number is taken with `$inc` on its own, and the recipient's counts
          // are left to the caller's write of their own (`recipientCounted: false`).
          const numbered = await input.numberAlone()
          if (!numbered) {
            if (spent !== null) await rateLimit.giveBack(senderId, spent)
            throw new ConversationClosedError(await input.reread())
          }
          // The number is recorded on the claim in a write of its own on this rare path.
          const lost = input.hold
            ? (
                await collection.bulkWrite([
                  confirming(input.hold, numbered.seq, lastMessage.sentAt),
                ])
              ).matchedCount === 0
            : false
          return { conversation: numbered, recipientCounted: false, lost }
        }
      }
      if (spent !== null) await rateLimit.giveBack(senderId, spent)
      throw new Error(`could not number a message in ${conversationId}`)
    },
  }
}

export type SendWrite = ReturnType<typeof createSendWrite>
