import type { FastifyBaseLogger } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { TopicPosition } from '@marketplace/service-kit'
import type { SnapshotStore } from './snapshot-store'
import { endPositions, isBefore, startsWithin } from './topic-positions'

export interface FollowedModelOptions {
  /** The model's name in the store, e.g. "jobs-feed". */
  model: string
  kafka: Kafka
  /** The topics the model's consumer group follows. */
  topics: readonly string[]
  /** Where snapshots are kept; null: always loaded from the database. */
  store: SnapshotStore | null
  /** Replaces the model's content with the database's; answers how many items it read. */
  loadFromDatabase(): Promise<number>
  /** Replaces the model's content with a snapshot's records; answers how many it read. */
  loadFromSnapshot(records: AsyncIterable<unknown>): Promise<number>
  /**
   * The model's content now, as records. Called synchronously together with the positions
   * it covers, so its items must not change afterwards (the feed replaces, never mutates).
   */
  snapshotRecords(): { count: number; records: Iterable<unknown> }
  /** How old the stored snapshot may grow before an instance writes a new one. */
  snapshotEveryMs: number
  logger: FastifyBaseLogger
}

/**
 * Loads a read model from where it loads fastest and hands over to its consumer group at
 * exactly the position that load covers, so no event is missed and none applied twice:
 *
 * - from the newest snapshot (an S3 object naming, per partition, the next offset its
 *   records have not applied), when the topics still hold those offsets;
 * - otherwise from the database, having read the topics' ends *before* the scan: every change
 *   the scan missed was committed after it started, so its event (published after the commit,
 *   by the outbox) lies at or after those ends.
 *
 * The model's group is pinned to that position before it joins (`startAt`), its handlers wait
 * until the content is in place (`whenLoaded`), and the model is ready once the group has
 * applied everything up to the topics' ends read after the load (`onHandled` tracks how far
 * each partition is applied). A ready instance writes a new snapshot when the stored one is
 * older than `snapshotEveryMs`, and right after a load from the database.
 */
export function createFollowedModel(options: FollowedModelOptions) {
  const { logger } = options
  let resolveStart!: (positions: TopicPosition[] | null) => void
  const start = new Promise<TopicPosition[] | null>((resolve) => (resolveStart = resolve))
  /**
   * Set once the group's start is fixed. A load tried again after that reads the database: a
   * snapshot found now might cover less than where the group already starts.
   */
  let startFixed = false
  let resolveLoaded!: () => void
  const loaded = new Promise<void>((resolve) => (resolveLoaded = resolve))
  /** Per "topic:partition", the next offset not yet applied. */
  const applied = new Map<string, TopicPosition>()
  let ready = false
  let loadedFrom: 'snapshot' | 'database' | null = null
  let writing: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null
  let closed = false

  const keyOf = (position: TopicPosition) => `${position.topic}:${position.partition}`

  let first: Promise<void> | null = null

  /**
   * The first call loads and hands over (retried by the kit when it fails); a later one
   * (a test's) reads the database again over the running model, positions unchanged.
   */
  async function load(): Promise<void> {
    if (!first) {
      first = loadAndFollow()
      first.catch(() => (first = null))
      return first
    }
    await first
    await options.loadFromDatabase()
  }

  async function loadAndFollow(): Promise<void> {
    const started = Date.now()
    const snapshot = startFixed ? null : await readUsableSnapshot()
    let source: 'snapshot' | 'database'
    let count: number
    if (snapshot) {
      source = 'snapshot'
      for (const position of snapshot.header.positions) applied.set(keyOf(position), position)
      startFixed = true
      resolveStart(snapshot.header.positions)
      count = await options.loadFromSnapshot(snapshot.records)
    } else {
      source = 'database'
      // Null when the broker is away: the group then starts at the ends once it is back,
      // and the database is read again after it joined (startAt below).
      const positions = await endPositions(options.kafka, options.topics).catch(() => null)
      for (const position of positions ?? []) applied.set(keyOf(position), position)
      if (positions) {
        startFixed = true
        resolveStart(positions)
      }
      count = await options.loadFromDatabase()
      if (!positions) resolveStart(null)
    }
    resolveLoaded()
    loadedFrom = source
    const loadedMs = Date.now() - started
    await catchUp()
    ready = true
    logger.info(
      { source, count, loadedMs, readyMs: Date.now() - started },
      `${options.model} loaded`,
    )
    if (options.store) {
      if (source === 'database') void writeSnapshotIfOlderThan(0)
      schedule()
    }
  }

  async function readUsableSnapshot() {
    if (!options.store) return null
    try {
      const snapshot = await options.store.read(options.model)
      if (!snapshot) return null
      // Offsets the topics no longer hold (retention) cannot be followed on from.
      if (!(await startsWithin(options.kafka, snapshot.header.positions))) {
        logger.warn({ takenAt: snapshot.header.takenAt }, 'snapshot older than the topics')
        return null
      }
      return snapshot
    } catch (error) {
      logger.warn({ err: error }, `${options.model} snapshot not readable; loading the database`)
      return null
    }
  }

  /** Until the group has applied everything published before now (the broker away: at once). */
  async function catchUp(): Promise<void> {
    const target = await endPositions(options.kafka, options.topics).catch(() => null)
    if (!target || applied.size === 0) return
    while (!closed && target.some((end) => isBefore(applied.get(keyOf(end)), end))) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  function schedule(): void {
    if (closed) return
    // Jittered, so replicas started together do not all write at once.
    const delay = options.snapshotEveryMs * (0.5 + Math.random() / 2)
    timer = setTimeout(() => {
      void writeSnapshotIfOlderThan(options.snapshotEveryMs).finally(schedule)
    }, delay)
    timer.unref()
  }

  async function writeSnapshotIfOlderThan(ageMs: number): Promise<void> {
    try {
      const takenAt = await options.store!.takenAt(options.model)
      if (takenAt && Date.now() - takenAt.getTime() < ageMs) return
      await writeSnapshot()
    } catch (error) {
      logger.warn({ err: error }, `${options.model} snapshot not written`)
    }
  }

  /**
   * Writes the content and the positions it covers, taken in the same synchronous step. One
   * write at a time: a call during another waits for it, then writes the content as it is then.
   */
  async function writeSnapshot(): Promise<void> {
    if (!options.store) return
    if (!ready) throw new Error(`${options.model} not loaded yet`)
    while (writing) await writing.catch(() => undefined)
    writing = (async () => {
      const started = Date.now()
      const positions = [...applied.values()].map((position) => ({ ...position }))
      const { count, records } = options.snapshotRecords()
      const takenAt = new Date().toISOString()
      const { bytes } = await options.store!.write(
        { format: 1, model: options.model, takenAt, positions, count },
        yielding(records),
      )
      logger.info({ count, bytes, ms: Date.now() - started }, `${options.model} snapshot written`)
    })().finally(() => (writing = null))
    return writing
  }

  return {
    load,
    isReady: () => ready,
    /** Where the first load came from (null before it ended). */
    loadedFrom: () => loadedFrom,
    /** Handlers wait on it: an event applied before the load would be overwritten by it. */
    whenLoaded: () => loaded,
    /** For the model's ConsumerDefinition: where its new group starts. */
    async startAt(): Promise<TopicPosition[] | null> {
      const positions = await start
      if (positions) return positions
      // Loaded while the broker was away: start at the ends as they are now, and read the
      // database again, which then holds everything before them.
      const ends = await endPositions(options.kafka, options.topics)
      for (const position of ends) applied.set(keyOf(position), position)
      loaded
        .then(() => options.loadFromDatabase())
        .catch((error: unknown) => logger.error({ err: error }, `${options.model} reload failed`))
      return ends
    },
    /** For the model's ConsumerDefinition: how far each partition is applied. */
    onHandled(position: TopicPosition): void {
      applied.set(keyOf(position), position)
    },
    writeSnapshot,
    close(): void {
      closed = true
      if (timer) clearTimeout(timer)
    },
  }
}

/**
 * The records one by one, giving the event loop a turn every 10 ms of making them: a record
 * may be one small line or a columnar feed's block of a few thousand rows.
 */
async function* yielding(records: Iterable<unknown>): AsyncGenerator<unknown> {
  let since = performance.now()
  for (const record of records) {
    yield record
    if (performance.now() - since >= 10) {
      await new Promise((resolve) => setImmediate(resolve))
      since = performance.now()
    }
  }
}

export type FollowedModel = ReturnType<typeof createFollowedModel>
