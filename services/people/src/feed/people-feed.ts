import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { PersonView } from '@marketplace/contracts/api'
import { CATEGORIES } from '@marketplace/contracts/marketplace'
import type { ConsumerDefinition, EventHandlers } from '@marketplace/service-kit'
import { createReadYourWrites } from '@marketplace/read-models/consistency'
import { exactMiles } from '@marketplace/geo'
import {
  ColumnarFeed,
  createOrderedApply,
  type ColumnarQuery,
  type NearQuery,
} from '@marketplace/read-models/feed'
import {
  createFollowedModel,
  topicsOf,
  type FollowedModelOptions,
  type SnapshotStore,
} from '@marketplace/read-models/snapshot'
import { seesHiddenContacts, type ProfileDocument } from '../profiles/profile-document'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import { toPersonView } from '../profiles/profile-views'
import { hasHiddenContacts, publicProfile, workerFeedSchema, workerRow } from './worker-row'

/** The snapshot's line of the feed's own: who may see a worker's hidden contacts. */
type ViewersRecord = { v: [workerId: string, contactViewers: string[]] }

const isViewersRecord = (record: unknown): record is ViewersRecord =>
  typeof record === 'object' &&
  record !== null &&
  Array.isArray((record as ViewersRecord).v) &&
  typeof (record as ViewersRecord).v[0] === 'string' &&
  Array.isArray((record as ViewersRecord).v[1])

/**
 * The snapshot object's name, which names the format too: a snapshot of the earlier format
 * (`people-feed`, whole profiles) is not found, and the first instance loads the database.
 */
export const PEOPLE_FEED_MODEL = 'people-feed-columnar'

/**
 * The listed workers, each as their card's public values, in feed order per filter value and
 * per search word (read-models' ColumnarFeed; docs/scale.md). Beside them, for the workers
 * with hidden contacts only, who may see those (`contactViewers`), so the feed knows whose
 * card to read from the database.
 */
export function createPeopleFeed(now: () => Date = () => new Date()) {
  const columns = new ColumnarFeed(workerFeedSchema, now)
  let viewers = new Map<string, string[]>()

  const viewersOf = (profile: ProfileDocument): string[] | null => {
    const hidden = profile.worker?.contacts.some((contact) => contact.visibility !== 'public')
    return hidden && profile.contactViewers?.length ? profile.contactViewers : null
  }

  /** These workers' rows (rows are keyed by user id); none when nobody is hidden. */
  function hiding(ids: ReadonlySet<string> | undefined) {
    return ids && ids.size > 0 ? { ids } : undefined
  }

  return {
    get size() {
      return columns.size
    },

    /** Replaces the content with these profiles (a load from the database); any order. */
    load(profiles: Iterable<ProfileDocument>): number {
      const next = new Map<string, string[]>()
      let count = 0
      columns.load(
        (function* () {
          for (const profile of profiles) {
            count += 1
            const row = workerRow(profile)
            if (!row) continue
            const entries = viewersOf(profile)
            if (entries) next.set(profile._id, entries)
            yield row
          }
        })(),
      )
      viewers = next
      return count
    },

    /** Applies the current state of one profile: held when listed, removed otherwise. */
    apply(userId: string, profile: ProfileDocument | null): void {
      const row = profile && workerRow(profile)
      columns.apply(userId, row)
      const entries = row && profile && viewersOf(profile)
      if (entries) viewers.set(userId, entries)
      else viewers.delete(userId)
    },

    page(query: ColumnarQuery & { hiddenIds?: ReadonlySet<string> }) {
      const { hiddenIds, ...rest } = query
      return columns.page({ ...rest, hide: hiding(hiddenIds) })
    },

    /** A row's place in the feed's order, for the cursor of the page it ends. */
    positionOf: (slot: number) => columns.positionOf(slot),

    /** `hiddenIds`: workers this reader blocked or was blocked by (docs/blocking.md). */
    search(terms: readonly string[], limit: number, hiddenIds?: ReadonlySet<string>): number[] {
      return columns.search(terms, limit, hiding(hiddenIds))
    },

    /**
     * The newest matches within `near`'s distance, at most `limit`, each with its distance
     * (nearest first when asked).
     */
    searchNear(
      terms: readonly string[],
      limit: number,
      near: NearQuery,
      hiddenIds?: ReadonlySet<string>,
    ): { slots: number[]; distances: number[] } {
      const within = (slot: number) => {
        const miles = columns.distanceOf(slot, near)
        return miles !== undefined && miles <= near.miles
      }
      let found = columns
        .search(terms, limit, hiding(hiddenIds), within)
        .map((slot) => ({ slot, miles: columns.distanceOf(slot, near)! }))
      if (near.order === 'distance') found = found.sort((a, b) => a.miles - b.miles)
      return { slots: found.map(({ slot }) => slot), distances: found.map(({ miles }) => miles) }
    },

    /** Listed workers per category; equal to what the feed returns for each category. */
    categoryCounts: () => columns.countsBy('category', CATEGORIES),

    /**
     * The cards of these rows as `viewerId` sees them. Everyone gets the card built from the
     * row, but the worker and those allowed to see the worker's hidden contacts: their card
     * comes from the profile read again by `_id` (the feed does not hold hidden contacts).
     */
    async views(
      slots: readonly number[],
      viewerId: string | null,
      at: Date,
      readProfile: (userId: string) => Promise<ProfileDocument | null>,
      distances?: readonly number[],
    ): Promise<PersonView[]> {
      // The location is public: the distance to a tenth of a mile, for everyone.
      const withDistance = (view: PersonView, i: number): PersonView => {
        const miles = distances?.[i]
        return miles === undefined ? view : { ...view, distanceMiles: exactMiles(miles) }
      }
      // Row numbers hold only until the feed changes: all is taken from them before awaiting.
      const views = slots.map((slot, i) => {
        const row = columns.row(slot)
        const profile = publicProfile(row)
        const view = withDistance(toPersonView(profile, null, at), i)
        if (!viewerId || !hasHiddenContacts(row)) return view
        const contactViewers = viewers.get(row.id) ?? []
        if (!seesHiddenContacts({ ...profile, contactViewers }, viewerId)) return view
        return readProfile(row.id).then((whole) =>
          whole ? withDistance(toPersonView(whole, viewerId, at), i) : view,
        )
      })
      return Promise.all(views)
    },

    /** Every listed worker in feed order, as everyone may see them (tests). */
    profiles(): ProfileDocument[] {
      return columns.rows().map(publicProfile)
    },

    /** Reads a snapshot of `snapshotRecords` off to the side; `finish` swaps it in. */
    snapshotLoader() {
      const loader = columns.snapshotLoader()
      const next = new Map<string, string[]>()
      return {
        accept(record: unknown): boolean {
          if (loader.accept(record)) return true
          if (!isViewersRecord(record)) return false
          next.set(record.v[0], record.v[1])
          return true
        },
        finish(): number {
          const count = loader.finish()
          viewers = next
          return count
        },
      }
    },

    /** The columns and the contact viewers, copied at once. */
    snapshotRecords(): { count: number; records: Iterable<unknown> } {
      const { count, records } = columns.snapshotRecords()
      const entries = [...viewers]
      return {
        count,
        records: (function* () {
          yield* records
          for (const [workerId, contactViewers] of entries)
            yield { v: [workerId, contactViewers] } satisfies ViewersRecord
        })(),
      }
    },
  }
}

export type PeopleFeed = ReturnType<typeof createPeopleFeed>

/**
 * Keeps this process's people feed equal to the database, like the jobs feed (its
 * feed-sync.ts): loaded from the newest snapshot or the database, its group following on from
 * exactly the position that load covers (read-models' followed-model.ts, docs/scale.md), this
 * process's writes applied at once, and other replicas' writes learned from the people.users
 * events on a consumer group of this process's own, re-reading the profile by `_id`.
 */
export function createPeopleFeedSync(deps: {
  feed: PeopleFeed
  profiles: ProfilesRepository
  logger: FastifyBaseLogger
  kafka: FollowedModelOptions['kafka']
  /** Where snapshots are kept; null: every load reads the database. */
  snapshots: SnapshotStore | null
  snapshotEveryMs: number
}) {
  /**
   * Profiles changed while a load was reading, one set per load under way: loads may overlap
   * (the start-up's, a test's), so each keeps its own.
   */
  const changedDuringLoads = new Set<Set<string>>()

  // An older re-read never undoes a newer change (read-models ordered-apply.ts).
  const ordered = createOrderedApply<ProfileDocument>((userId, profile) => {
    deps.feed.apply(userId, profile)
    readYourWrites.noteApplied(userId, profileVersion(profile))
    for (const changed of changedDuringLoads) changed.add(userId)
  })
  /**
   * A read that names profiles a write just left (another instance's, maybe not yet learned
   * from Kafka) reads those from the database first (read-models' read-your-writes.ts).
   */
  const readYourWrites = createReadYourWrites({ kind: 'user', refresh: (id) => refresh(id) })
  const apply = ordered.apply

  async function refresh(userId: string): Promise<void> {
    await ordered.refresh(userId, () => deps.profiles.findById(userId))
  }

  /** Replaces the content; this process's writes during the read are read again after it. */
  async function replaceWith(read: () => Promise<() => number>): Promise<number> {
    const changedDuringLoad = new Set<string>()
    changedDuringLoads.add(changedDuringLoad)
    try {
      const install = await read()
      const count = install()
      for (const userId of changedDuringLoad) await refresh(userId)
      return count
    } finally {
      changedDuringLoads.delete(changedDuringLoad)
    }
  }

  const loadFromDatabase = () =>
    replaceWith(async () => {
      const profiles = await deps.profiles.findAll()
      return () => deps.feed.load(profiles)
    })

  /** Built off to the side while the feed serves; swapped in at once (`finish`). */
  const loadFromSnapshot = (records: AsyncIterable<unknown>) =>
    replaceWith(async () => {
      const loader = deps.feed.snapshotLoader()
      for await (const record of records) loader.accept(record)
      return loader.finish
    })

  // Not before the load is in place: the load would replace what it applied.
  const byUserId = async (event: { data: { userId: string } }) => {
    await followed.whenLoaded()
    await refresh(event.data.userId)
  }
  const handlers: EventHandlers = {
    'user.profile-updated': byUserId,
    'worker-profile.updated': byUserId,
    'user.deletion-requested': byUserId,
    'user.deletion-cancelled': byUserId,
    'user.deleted': byUserId,
    // A rating changed a worker's average on another replica: re-read the profile.
    'worker.rated': async ({ data }) => byUserId({ data: { userId: data.workerId } }),
    // Another instance gave or took back an owner's sight of the worker's hidden contacts.
    'worker.contact-viewers-changed': async ({ data }) =>
      byUserId({ data: { userId: data.workerId } }),
  }

  const followed = createFollowedModel({
    model: PEOPLE_FEED_MODEL,
    kafka: deps.kafka,
    topics: topicsOf(handlers),
    store: deps.snapshots,
    loadFromDatabase,
    loadFromSnapshot,
    snapshotRecords: () => deps.feed.snapshotRecords(),
    snapshotEveryMs: deps.snapshotEveryMs,
    logger: deps.logger,
  })

  const consumer: ConsumerDefinition = {
    // One group per process: a shared group would give each event to one replica only.
    groupId: `people-feed.${hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`,
    useLedger: false,
    fromBeginning: false,
    deleteOnClose: true,
    startAt: followed.startAt,
    onHandled: followed.onHandled,
    handlers,
  }

  return {
    load: followed.load,
    writeSnapshot: followed.writeSnapshot,
    loadedFrom: followed.loadedFrom,
    apply,
    refresh,
    /** Before a read: the profiles its X-Read-After header names, as they are now. */
    catchUp: readYourWrites.catchUp,
    consumer,
    isLoaded: followed.isReady,
    close: followed.close,
  }
}

export type PeopleFeedSync = ReturnType<typeof createPeopleFeedSync>

/**
 * The version a write left a profile at, as its position names it: `updatedAt` in ms (0 for
 * a profile from before it existed), `gone` once deleted.
 */
export function profileVersion(profile: ProfileDocument | null): number | 'gone' {
  return profile ? (profile.updatedAt?.getTime() ?? 0) : 'gone'
}
