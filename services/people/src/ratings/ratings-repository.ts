import { MongoServerError, ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'
import { RATINGS_COLLECTION, type RatingDocument } from './rating-document'

export const ratingIndexes: IndexDefinition[] = [
  // Once per request: the database decides, so two parallel first ratings cannot both land.
  {
    collection: RATINGS_COLLECTION,
    keys: { requestId: 1 },
    options: { name: 'one_rating_per_request', unique: true },
  },
  // user.deleted of the owner (their ratings are taken back from the workers).
  { collection: RATINGS_COLLECTION, keys: { ownerId: 1 }, options: { name: 'by_owner' } },
  // user.deleted of the worker.
  { collection: RATINGS_COLLECTION, keys: { workerId: 1 }, options: { name: 'by_worker' } },
  // The sweep of changes a crash left half done.
  {
    collection: RATINGS_COLLECTION,
    keys: { 'pending.since': 1 },
    options: { name: 'pending_since' },
  },
]

export class DuplicateRatingError extends Error {}

export function createRatingsRepository(db: Db) {
  const ratings = db.collection<RatingDocument>(RATINGS_COLLECTION)

  return {
    newId: () => new ObjectId().toHexString(),

    async insert(rating: RatingDocument): Promise<void> {
      try {
        await ratings.insertOne(rating)
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) {
          throw new DuplicateRatingError()
        }
        throw error
      }
    },

    findByRequest: (requestId: string) => ratings.findOne({ requestId }),

    async findByRequests(requestIds: readonly string[]): Promise<Map<string, RatingDocument>> {
      if (requestIds.length === 0) return new Map()
      const found = await ratings.find({ requestId: { $in: [...requestIds] } }).toArray()
      return new Map(found.map((rating) => [rating.requestId, rating]))
    },

    /** Applies `update` when `guard` still matches; answers the rating after it. */
    update: (
      id: string,
      update: UpdateFilter<RatingDocument>,
      guard: Filter<RatingDocument> = {},
    ): Promise<RatingDocument | null> =>
      ratings.findOneAndUpdate({ ...guard, _id: id } as Filter<RatingDocument>, update, {
        returnDocument: 'after',
      }),

    async deleteIf(id: string, guard: Filter<RatingDocument>): Promise<void> {
      await ratings.deleteOne({ ...guard, _id: id } as Filter<RatingDocument>)
    },

    ofOwner: (ownerId: string) => ratings.find({ ownerId }).toArray(),

    /** Changes written before `before` and not yet counted (a crash in between). */
    pendingSince: (before: Date) => ratings.find({ 'pending.since': { $lte: before } }).toArray(),

    async deleteOfWorker(workerId: string): Promise<void> {
      await ratings.deleteMany({ workerId })
    },
  }
}

export type RatingsRepository = ReturnType<typeof createRatingsRepository>
