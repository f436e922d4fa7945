import type { Db } from 'mongodb'
import type { ConsumerDefinition } from '@marketplace/service-kit'

/**
 * What a post's owner sees of a worker beside their offer: the rating post owners gave them
 * (from `worker.rated`, which the people service announces with the previous stars of a
 * re-rating) and how many of their requests on posts were accepted (read from the requests
 * themselves). One document per rated worker, addressed by `_id`.
 */
export const WORKER_STANDING_COLLECTION = 'worker_standing'

interface WorkerStandingDocument {
  _id: string
  ratingSum: number
  ratingCount: number
}

export interface WorkerRating {
  average: number | null
  count: number
}

export function createWorkerStanding(db: Db) {
  const standing = db.collection<WorkerStandingDocument>(WORKER_STANDING_COLLECTION)
  return {
    /**
     * Its own group, from the beginning of people.users, with the kit's ledger: a redelivered
     * rating is applied once, and a new instance learns every rating given before it.
     */
    consumer: {
      groupId: 'jobs-worker-standing',
      handlers: {
        'worker.rated': async ({ data }) => {
          const first = data.previousStars === null
          await standing.updateOne(
            { _id: data.workerId },
            {
              $inc: {
                ratingSum: data.stars - (data.previousStars ?? 0),
                ratingCount: first ? 1 : 0,
              },
            },
            { upsert: true },
          )
        },
        'user.deleted': async ({ data }) => {
          await standing.deleteOne({ _id: data.userId })
        },
      },
    } satisfies ConsumerDefinition,

    /** The rating of each worker named: one `_id` lookup each (lists are short). */
    async ratings(workerIds: readonly string[]): Promise<Map<string, WorkerRating>> {
      const ids = [...new Set(workerIds)]
      const found = await Promise.all(ids.map((id) => standing.findOne({ _id: id })))
      return new Map(
        ids.map((id, index) => {
          const doc = found[index]
          const count = doc?.ratingCount ?? 0
          const average = doc && count > 0 ? Math.round((doc.ratingSum / count) * 10) / 10 : null
          return [id, { average, count }]
        }),
      )
    },
  }
}

export type WorkerStanding = ReturnType<typeof createWorkerStanding>
