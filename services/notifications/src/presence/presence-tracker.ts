import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import type { LiveInstanceDocument, PresenceRepository } from './presence-repository'

/**
 * "Does this user have an open socket on any instance?", which decides whether a new message
 * is told by a notification (docs/notifications.md, "Presence"). This instance records, per
 * user, that it holds their sockets (on the first one's arrival, and takes it back when the
 * last one leaves), and proves it is alive with one heartbeat every `heartbeatMs`. A user's
 * entry for an instance counts while that instance's heartbeat is younger than `ttlMs`.
 */
export function createPresenceTracker(deps: {
  repository: PresenceRepository
  heartbeatMs: number
  ttlMs: number
  /** Whether this instance holds an authenticated socket of the user now (the live server). */
  holdsSocketOf?: (userId: string) => boolean
  logger: FastifyBaseLogger
  now?: () => Date
}) {
  const now = deps.now ?? (() => new Date())
  // Random per process: a restarted instance never revives the entries of its previous life.
  // Hex only: the id is a field name in presence documents (no dots).
  const instanceId = randomBytes(8).toString('hex')
  const startedAt = now()
  /** The other instances' last heartbeats, as last read: most checks need no instance read. */
  const knownHeartbeats = new Map<string, number>()
  /** Each user's last presence write on this instance; the next waits for it (same order). */
  const writes = new Map<string, Promise<void>>()
  let holdsSocketOf = deps.holdsSocketOf ?? (() => false)
  let timer: NodeJS.Timeout | undefined
  let stopped = false

  const fresh = (heartbeatAt: number) => now().getTime() - heartbeatAt < deps.ttlMs

  async function beat(): Promise<void> {
    await deps.repository.heartbeat(
      { _id: instanceId, host: hostname(), pid: process.pid, heartbeatAt: now() },
      startedAt,
    )
    const all = await deps.repository.allInstances()
    const long = now().getTime() - 10 * deps.ttlMs
    knownHeartbeats.clear()
    for (const instance of all) knownHeartbeats.set(instance._id, instance.heartbeatAt.getTime())
    // Instances dead for long are forgotten; their users' entries are dropped when next read.
    await deps.repository.forgetInstances(
      all.filter((instance) => instance.heartbeatAt.getTime() < long).map(({ _id }) => _id),
    )
  }

  /**
   * Records what the live server holds now, after the user's previous write: a socket that
   * leaves and comes back at once ends present, whatever order the writes would race in.
   */
  function sync(userId: string): Promise<void> {
    const previous = writes.get(userId) ?? Promise.resolve()
    const next = previous.then(async () => {
      if (stopped) return
      try {
        if (holdsSocketOf(userId)) await deps.repository.markHere(userId, instanceId, now())
        else await deps.repository.markGone(userId, [instanceId])
      } catch (error) {
        // A lost write costs at worst one notification too many or too few, never a push.
        deps.logger.warn({ err: error, userId }, 'presence not recorded')
      }
    })
    writes.set(userId, next)
    void next.then(() => {
      if (writes.get(userId) === next) writes.delete(userId)
    })
    return next
  }

  async function liveAmong(ids: string[]): Promise<Set<string>> {
    const live = new Set(ids.filter((id) => fresh(knownHeartbeats.get(id) ?? 0)))
    const unsure = ids.filter((id) => !live.has(id))
    if (unsure.length === 0) return live
    // Started since the last beat, or beat since: the stored heartbeat decides.
    const found: LiveInstanceDocument[] = await deps.repository.findInstances(unsure)
    for (const instance of found) {
      knownHeartbeats.set(instance._id, instance.heartbeatAt.getTime())
      if (fresh(instance.heartbeatAt.getTime())) live.add(instance._id)
    }
    return live
  }

  function halt() {
    stopped = true
    if (timer) clearInterval(timer)
  }

  return {
    instanceId,

    /** The live server tells the tracker how to read its rooms (it is built after). */
    readRoomsWith(check: (userId: string) => boolean) {
      holdsSocketOf = check
    },

    /** First heartbeat before any socket is accepted, then one every `heartbeatMs`. */
    async start() {
      await beat()
      timer = setInterval(() => {
        beat().catch((error) => deps.logger.warn({ err: error }, 'presence heartbeat failed'))
      }, deps.heartbeatMs)
      timer.unref()
    },

    /** No more writes: the closing instance's sockets leave all at once, for nothing. */
    halt,

    /** Gone at once for the others, rather than after `ttlMs`. */
    async stop() {
      halt()
      await deps.repository.forgetInstances([instanceId])
    },

    sync,

    async isOnline(userId: string): Promise<boolean> {
      if (holdsSocketOf(userId)) return true
      const document = await deps.repository.findOfUser(userId)
      const ids = Object.keys(document?.instances ?? {}).filter((id) => id !== instanceId)
      if (ids.length === 0) return false
      const live = await liveAmong(ids)
      const dead = ids.filter((id) => !live.has(id))
      // A crashed instance's entries, dropped when met.
      if (dead.length > 0) await deps.repository.markGone(userId, dead)
      return live.size > 0
    },

    deleteOfUser: (userId: string) => deps.repository.deleteOfUser(userId),
  }
}

export type PresenceTracker = ReturnType<typeof createPresenceTracker>
