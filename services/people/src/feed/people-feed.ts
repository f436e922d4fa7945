import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { CATEGORIES } from '@marketplace/contracts/marketplace'
import type { ConsumerDefinition, EventHandlers } from '@marketplace/service-kit'
import { FeedIndex, createOrderedApply, type FeedSchema } from '@marketplace/read-models/feed'
import {
  createFollowedModel,
  fromDatedJson,
  toDatedJson,
  topicsOf,
  type FollowedModelOptions,
  type SnapshotStore,
} from '@marketplace/read-models/snapshot'
import { isListed, type ProfileDocument } from '../profiles/profile-document'
import type { ProfilesRepository } from '../profiles/profiles-repository'
import { contactOptionsOf, paymentOptionsIn } from '../profiles/worker-fields'

/**
 * What a worker answers to in the people feed (docs/people.md): category, location as
 * written, the payment options named in the payment type, and the kinds of the public
 * contacts. Hidden contacts answer to nothing: the filter would reveal them.
 */
const peopleFeedSchema: FeedSchema<ProfileDocument> = {
  isLive: (profile) => isListed(profile),
  filterValues(profile) {
    const worker = profile.worker
    if (!worker) return []
    const values: Array<[string, string]> = [['category', worker.category]]
    if (worker.location) values.push(['location', worker.location])
    for (const option of paymentOptionsIn(worker.paymentType)) values.push(['payment', option])
    for (const option of contactOptionsOf(worker.contacts)) values.push(['contact', option])
    return values
  },
  searchWords: (profile) => profile.worker?.searchWords ?? [],
}

export function createPeopleFeed(now: () => Date = () => new Date()) {
  const index = new FeedIndex(peopleFeedSchema, now)
  return Object.assign(index, {
    /** Listed workers per category; equal to what the feed returns for each category. */
    categoryCounts: () => index.countsBy('category', CATEGORIES),
  })
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
    for (const changed of changedDuringLoads) changed.add(userId)
  })
  const apply = ordered.apply

  async function refresh(userId: string): Promise<void> {
    await ordered.refresh(userId, () => deps.profiles.findById(userId))
  }

  /** Replaces the content; this process's writes during the read are read again after it. */
  async function replaceWith(read: () => Promise<ProfileDocument[]>): Promise<number> {
    const changedDuringLoad = new Set<string>()
    changedDuringLoads.add(changedDuringLoad)
    try {
      const profiles = await read()
      deps.feed.load(profiles)
      for (const userId of changedDuringLoad) await refresh(userId)
      return profiles.length
    } finally {
      changedDuringLoads.delete(changedDuringLoad)
    }
  }

  const loadFromDatabase = () => replaceWith(() => deps.profiles.findAll())

  const loadFromSnapshot = (records: AsyncIterable<unknown>) =>
    replaceWith(async () => {
      const profiles: ProfileDocument[] = []
      for await (const record of records) profiles.push(fromDatedJson(record) as ProfileDocument)
      return profiles
    })

  /** The listed workers in feed order, taken at once (the feed replaces, never mutates). */
  function snapshotRecords() {
    const profiles = deps.feed.items()
    return {
      count: profiles.length,
      records: (function* () {
        for (const profile of profiles) yield toDatedJson(profile)
      })(),
    }
  }

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
  }

  const followed = createFollowedModel({
    model: 'people-feed',
    kafka: deps.kafka,
    topics: topicsOf(handlers),
    store: deps.snapshots,
    loadFromDatabase,
    loadFromSnapshot,
    snapshotRecords,
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
    consumer,
    isLoaded: followed.isReady,
    close: followed.close,
  }
}

export type PeopleFeedSync = ReturnType<typeof createPeopleFeedSync>
