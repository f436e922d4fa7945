import { MongoServerError, type Db } from 'mongodb'

/**
 * Which documents of a collection belong to a user, one document per user and list
 * (`_id: '<userId>:<list>'`, e.g. `'<userId>:sent'`), holding their ids (issue 19 §2). A
 * user's list is then one read by `_id` and one read by `_id` per member, whatever the size
 * of the collection: the local server (FerretDB v1) uses no index but `_id`, so a
 * `find({ requesterId })` there reads every document of every user. On MongoDB the same reads
 * are index lookups on `_id`; the owner-field index stays declared for the backfill below.
 * The lists are read and written by `_id` only, so their collection needs no other index.
 *
 * Only membership is kept here (a document joins on insert and leaves on delete), never a
 * copy of its fields: a decision or an edit writes one document, as before, and the list can
 * never show a stale status.
 *
 * The order of writes makes a crash leave an id too many, never one too few: an id joins
 * before its document is inserted and leaves after it is deleted. A member whose document is
 * gone is skipped by the reader (it does not remove it: the document may be an insert still
 * under way).
 *
 * Data stored before the lists existed: a list not yet marked `complete` is filled once from
 * `backfill` (the owner-field query the service used before), on its first read.
 *
 * The owner need not be a user: a post keeps its requests and invitations the same way
 * (`<postId>:requests`, `<postId>:invited` in the jobs service), its id in `userId`.
 */
export interface UserListDocument {
  /** `<userId>:<list>` */
  _id: string
  userId: string
  list: string
  ids: string[]
  /** Filled from the documents stored before the list existed (or made empty, for a new user). */
  complete?: boolean
}

export const userListId = (userId: string, list: string) => `${userId}:${list}`

const isDuplicateKey = (error: unknown) => error instanceof MongoServerError && error.code === 11000

export function createUserLists(db: Db, collection: string) {
  const lists = db.collection<UserListDocument>(collection)

  /** `$addToSet` on the user's list, made if missing. Two first upserts at once: one retries. */
  async function addAll(userId: string, list: string, ids: string[], complete = false) {
    const update = {
      $addToSet: { ids: { $each: ids } },
      $setOnInsert: { userId, list },
      ...(complete ? { $set: { complete: true } } : {}),
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        await lists.updateOne({ _id: userListId(userId, list) }, update, { upsert: true })
        return
      } catch (error) {
        if (!isDuplicateKey(error) || attempt === 2) throw error
      }
    }
  }

  return {
    /** Before the document is inserted: a crash in between leaves an id the reader skips. */
    add: (userId: string, list: string, id: string) => addAll(userId, list, [id]),

    /** After the document is deleted. `$pullAll`: FerretDB v1 ignores `$pull` with `$in`. */
    async remove(userId: string, list: string, ids: string[]) {
      if (ids.length === 0) return
      await lists.updateOne({ _id: userListId(userId, list) }, { $pullAll: { ids } })
    },

    /**
     * The ids on the user's list. The first read of a list made before the lists existed
     * fills it from `backfill` (what was stored in the old shape) and marks it complete.
     */
    async ids(userId: string, list: string, backfill: () => Promise<string[]>): Promise<string[]> {
      const found = await lists.findOne({ _id: userListId(userId, list) })
      if (found?.complete) return found.ids
      const stored = await backfill()
      await addAll(userId, list, stored, true)
      return [...new Set([...(found?.ids ?? []), ...stored])]
    },

    /** user.deleted: the user's own lists (others' lists lose the ids where the documents go). */
    async forget(userId: string, names: readonly string[]) {
      for (const list of names) await lists.deleteOne({ _id: userListId(userId, list) })
    },
  }
}

export type UserLists = ReturnType<typeof createUserLists>
