import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import {
  CONVERSATIONS_COLLECTION,
  type ConversationDocument,
  type PartyRole,
} from '../conversations/conversation-document'
import { INBOXES_COLLECTION, type InboxDocument, type InboxEntry } from './inbox-document'

/** Where the inboxes were kept before they moved into the conversations' collection. */
export const OLD_INBOXES_COLLECTION = 'inboxes'

/**
 * An inbox as the earlier version stored it in `inboxes` (the same fields as now), plus the
 * claim of the move that is taking it over (`moveId`, set here before it is merged).
 */
interface OldInboxDocument {
  _id: string
  unreadTotal: number
  conversations: Record<string, InboxEntry>
  sending?: { windowStart: Date; count: number }
  moveId?: string
}

/** The new inbox with the moves it has taken in (so a move merged once is never merged again). */
type MovedInboxDocument = InboxDocument & { movedIn?: Record<string, true> }

const PAGE = 500
/** A compare-and-set that keeps losing means something else is wrong: give up loudly. */
const MAX_ATTEMPTS = 50

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

/**
 * Moves every inbox left in the old `inboxes` collection into `conversations` (an upgrade
 * from the version that kept them apart), before the service serves: without it every user's
 * list and unread counts would look empty. Pages by `_id`, and each inbox is deleted once
 * merged, so a second start finds nothing and a start after a crash resumes where it was.
 *
 * Each inbox goes in three steps, safe for two instances starting together and for the
 * writes of instances already serving:
 * 1. it is claimed with a move id (`moveId`, set once: a second instance uses the same id);
 * 2. it is merged into the new inbox in one guarded write that also records the move id in
 *    `movedIn`: a write whose move is recorded already matches nothing, so nothing is counted
 *    twice, whoever crashed where;
 * 3. it is deleted, guarded on its move id.
 * Answers how many inboxes it moved.
 */
export async function moveOldInboxes(db: Db): Promise<number> {
  const old = db.collection<OldInboxDocument>(OLD_INBOXES_COLLECTION)
  const inboxes = db.collection<MovedInboxDocument>(INBOXES_COLLECTION)
  const conversations = db.collection<ConversationDocument>(CONVERSATIONS_COLLECTION)
  let moved = 0
  let last = ''
  for (;;) {
    // A filter on `_id` (never none: the local server's patch mishandles a find without one).
    const page = await old
      .find({ _id: { $gt: last } })
      .sort({ _id: 1 })
      .limit(PAGE)
      .toArray()
    if (page.length === 0) return moved
    for (const found of page) {
      const claimed = await claim(found)
      if (claimed) {
        await merge(claimed)
        await old.deleteOne({ _id: claimed._id, moveId: claimed.moveId })
        moved += 1
      }
    }
    last = page[page.length - 1]!._id
  }

  /** The inbox with its move id: this instance's, or the one another instance set first. */
  async function claim(found: OldInboxDocument): Promise<Required<OldInboxDocument> | null> {
    const claimed =
      found.moveId === undefined
        ? ((await old.findOneAndUpdate(
            { _id: found._id, moveId: { $exists: false } },
            { $set: { moveId: new ObjectId().toHexString() } },
            { returnDocument: 'after' },
          )) ?? (await old.findOne({ _id: found._id })))
        : found
    // Gone meanwhile: another instance moved it.
    return claimed ? ({ sending: undefined, ...claimed } as Required<OldInboxDocument>) : null
  }

  /**
   * The old inbox is the history, the new one (if any) only what arrived since the new version
   * served: every conversation of the old one is kept, with its count.
   * - A conversation only the old inbox has is copied as it was.
   * - One both have: its count is the sum (the old one counted the messages before, the new
   *   one those since), capped by what the conversation says the user can still have unread
   *   (`seq` minus their `lastRead`): a user who read it after the upgrade read the old
   *   messages too, and a read leaves the new count at 0 while the old one still has them.
   *   Its last activity is the later of the two.
   * - `unreadTotal` rises by what the merge added, so it stays the sum of the counts.
   * - The old send budget is dropped: it is at most a minute old.
   * The write is a compare-and-set on everything it read (the new counts it added to, the
   * entries it found missing): a message or a read meanwhile makes it miss and read again.
   */
  async function merge(from: Required<OldInboxDocument>): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const target = await inboxes.findOne({ _id: from._id })
      if (target?.movedIn?.[from.moveId]) return
      if (!target) {
        try {
          await inboxes.insertOne({
            _id: from._id,
            unreadTotal: sumOf(from.conversations),
            conversations: from.conversations,
            movedIn: { [from.moveId]: true },
          })
          return
        } catch (error) {
          // Another instance's move or a new write created it meanwhile: merge into that.
          if (!isDuplicateKey(error)) throw error
          continue
        }
      }
      const filter: Filter<MovedInboxDocument> = {
        _id: from._id,
        [`movedIn.${from.moveId}`]: { $exists: false },
        unreadTotal: target.unreadTotal,
      }
      const set: Record<string, unknown> = { [`movedIn.${from.moveId}`]: true }
      const max: Record<string, Date> = {}
      let added = 0
      for (const [conversationId, entry] of Object.entries(from.conversations ?? {})) {
        const path = `conversations.${conversationId}`
        const current = target.conversations?.[conversationId]
        if (!current) {
          filter[path] = { $exists: false }
          set[path] = entry
          added += entry.unread
          continue
        }
        const unread = Math.min(
          current.unread + entry.unread,
          Math.max(current.unread, await unreadAtMost(from._id, conversationId)),
        )
        filter[`${path}.unread`] = current.unread
        if (unread !== current.unread) set[`${path}.unread`] = unread
        max[`${path}.lastActivityAt`] = entry.lastActivityAt
        added += unread - current.unread
      }
      const update: UpdateFilter<MovedInboxDocument> = {
        $set: set,
        $inc: { unreadTotal: added },
        ...(Object.keys(max).length > 0 && { $max: max }),
      }
      const result = await inboxes.updateOne(filter, update)
      if (result.matchedCount === 1) return
    }
    throw new Error(`could not move the old inbox of ${from._id}`)
  }

  /** How many messages of the conversation the user can have unread: those after their last read. */
  async function unreadAtMost(userId: string, conversationId: string): Promise<number> {
    const conversation = await conversations.findOne(
      { _id: conversationId },
      { projection: { seq: 1, lastRead: 1, requesterId: 1 } },
    )
    if (!conversation) return 0
    const role: PartyRole = conversation.requesterId === userId ? 'requester' : 'other'
    return Math.max(0, conversation.seq - (conversation.lastRead?.[role] ?? 0))
  }
}

const sumOf = (entries: Record<string, InboxEntry> | undefined) =>
  Object.values(entries ?? {}).reduce((total, entry) => total + entry.unread, 0)
