import { parsePositions, type WrittenPosition } from '@marketplace/service-kit'

/** Item versions applied recently, remembered per id: enough for the writes of a few seconds. */
const RECENT_APPLIES = 20_000
/** Positions already made good on this instance; each is read from the database once at most. */
const SETTLED_POSITIONS = 20_000
/**
 * Items one read may read from the database: positions come from clients too, and a read
 * naming a hundred made-up ids must not cost a hundred database reads. The rest stay
 * unsettled, for the next read (or the events) to bring in.
 */
export const MAX_REFRESHES_PER_READ = 16

export interface ReadYourWritesOptions {
  /** The kind of item this model holds, as positions name it (`post`, `user`). */
  kind: string
  /** Reads the item from the database and applies it to the model (its ordered refresh). */
  refresh(id: string): Promise<void>
}

export interface CatchUpResult {
  /** Positions of this model's kind the read asked for. */
  asked: number
  /** Of those, the items read from the database because the model had not applied them yet. */
  refreshed: number
}

/**
 * Read-your-writes for an in-memory read model that several instances keep, each from Kafka.
 *
 * A read may name positions (service-kit's written-positions.ts): items and the version a
 * write left them at. Before the read is answered, every named item the model has not yet
 * applied at that version (or later) is read from the database and applied, through the
 * model's ordered refresh, so an older copy arriving afterwards never undoes it. No waiting
 * for Kafka: the database holds the write as soon as the writer was answered, so the cost
 * is one read by `_id` per item, and only on the instance that lags.
 *
 * What the model applied is known from `noteApplied`, which the model's apply calls for every
 * document it takes in (its own writes, events, refreshes). A position is settled once: a
 * second read naming it costs a map look-up.
 */
export function createReadYourWrites(options: ReadYourWritesOptions) {
  /** id → the version last applied (`gone`: the item was deleted or left the model's source). */
  const applied = new Map<string, number | 'gone'>()
  const settled = new Map<string, true>()
  /** Refreshes under way by id, shared by reads that ask for the same item at once. */
  const inFlight = new Map<string, Promise<void>>()

  function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
    // Most recent last: the oldest entry is the first one dropped.
    map.delete(key)
    map.set(key, value)
    if (map.size > limit) map.delete(map.keys().next().value as K)
  }

  function isApplied(position: WrittenPosition): boolean {
    const version = applied.get(position.id)
    if (version === undefined) return false
    // A deletion is the last state an item can reach: it covers every earlier version.
    if (version === 'gone') return true
    return position.version !== 'gone' && version >= position.version
  }

  function refreshOnce(id: string): Promise<void> {
    let running = inFlight.get(id)
    if (!running) {
      running = options.refresh(id).finally(() => inFlight.delete(id))
      inFlight.set(id, running)
    }
    return running
  }

  return {
    /**
     * The model applied this item at this version (`null`: a document without a version,
     * which settles nothing by itself; `gone`: the item no longer exists).
     */
    noteApplied(id: string, version: number | 'gone' | null): void {
      if (version === null) applied.delete(id)
      else remember(applied, id, version, RECENT_APPLIES)
    },

    /**
     * Makes the model hold every item the header names at its version or later; answers how
     * many it asked for and how many it had to read from the database.
     */
    async catchUp(header: string | string[] | undefined): Promise<CatchUpResult> {
      const positions = parsePositions(header, options.kind)
      if (positions.length === 0) return { asked: 0, refreshed: 0 }
      const missing: WrittenPosition[] = []
      for (const position of positions) {
        const key = `${position.id}@${position.version}`
        if (settled.has(key)) continue
        if (isApplied(position)) remember(settled, key, true, SETTLED_POSITIONS)
        else missing.push(position)
      }
      if (missing.length === 0) return { asked: positions.length, refreshed: 0 }
      const ids = [...new Set(missing.map((position) => position.id))].slice(
        0,
        MAX_REFRESHES_PER_READ,
      )
      await Promise.all(ids.map(refreshOnce))
      // Read from the database after the write was answered: the model holds it now, whatever
      // version the position named (a client may name one that never existed).
      const refreshedIds = new Set(ids)
      for (const position of missing) {
        if (!refreshedIds.has(position.id)) continue
        const key = `${position.id}@${position.version}`
        remember(settled, key, true, SETTLED_POSITIONS)
      }
      return { asked: positions.length, refreshed: ids.length }
    },
  }
}

export type ReadYourWrites = ReturnType<typeof createReadYourWrites>
