import type { Db } from 'mongodb'
import type { IndexDefinition } from '@marketplace/service-kit'

export const PRESENCE_COLLECTION = 'presence'
export const LIVE_INSTANCES_COLLECTION = 'live_instances'

/**
 * Which instances hold at least one authenticated socket of a user, addressed by the user's
 * id (one read answers "is this user anywhere?"). Written only when a user's first socket on
 * an instance joins and when their last one there leaves, never per heartbeat: the
 * heartbeat is per instance (below), so 5,000 sockets cost no writes while they stay.
 */
export interface PresenceDocument {
  _id: string
  /** Instance id to when the user's first socket there joined. */
  instances: Record<string, Date>
}

/**
 * One running notifications instance and its last sign of life. An entry of a presence
 * document counts only while its instance's heartbeat is fresh: a crashed instance never
 * takes its users' entries back, and they expire with it.
 */
export interface LiveInstanceDocument {
  _id: string
  host: string
  pid: number
  startedAt: Date
  heartbeatAt: Date
}

/**
 * Every query here names documents by `_id`; the list of instances is read whole (one
 * document per running instance, a handful), so neither collection needs another index.
 */
export const presenceIndexes: IndexDefinition[] = []

export function createPresenceRepository(db: Db) {
  const presence = db.collection<PresenceDocument>(PRESENCE_COLLECTION)
  const instances = db.collection<LiveInstanceDocument>(LIVE_INSTANCES_COLLECTION)

  return {
    async markHere(userId: string, instanceId: string, at: Date) {
      await presence.updateOne(
        { _id: userId },
        { $set: { [`instances.${instanceId}`]: at } },
        { upsert: true },
      )
    },

    async markGone(userId: string, instanceIds: string[]) {
      if (instanceIds.length === 0) return
      const unset = Object.fromEntries(instanceIds.map((id) => [`instances.${id}`, '' as const]))
      await presence.updateOne({ _id: userId }, { $unset: unset })
    },

    findOfUser: (userId: string) => presence.findOne({ _id: userId }),

    async heartbeat(instance: Omit<LiveInstanceDocument, 'startedAt'>, startedAt: Date) {
      const { _id, ...fields } = instance
      await instances.updateOne(
        { _id },
        { $set: fields, $setOnInsert: { startedAt } },
        { upsert: true },
      )
    },

    allInstances: () => instances.find({}).toArray(),

    findInstances: (ids: string[]) => instances.find({ _id: { $in: ids } }).toArray(),

    async forgetInstances(ids: string[]) {
      if (ids.length > 0) await instances.deleteMany({ _id: { $in: ids } })
    },

    deleteOfUser: async (userId: string) => {
      await presence.deleteOne({ _id: userId })
    },
  }
}

export type PresenceRepository = ReturnType<typeof createPresenceRepository>
