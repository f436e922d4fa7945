import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { CATEGORIES } from '@marketplace/contracts/marketplace'
import type { ConsumerDefinition } from '@marketplace/service-kit'
import { FeedIndex, createOrderedApply, type FeedSchema } from '@marketplace/read-models/feed'
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
 * feed-sync.ts): a scan at start, this process's writes applied at once, and other replicas'
 * writes learned from the people.users events on a consumer group of this process's own,
 * re-reading the profile by `_id`.
 */
export function createPeopleFeedSync(deps: {
  feed: PeopleFeed
  profiles: ProfilesRepository
  logger: FastifyBaseLogger
}) {
  let loaded = false
  /**
   * Profiles changed while a load was scanning, one set per load under way: loads may overlap
   * (the start-up's second load once the group has joined, a test's), so each keeps its own.
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

  async function load(): Promise<void> {
    const started = Date.now()
    let profiles: ProfileDocument[] = []
    const changedDuringLoad = new Set<string>()
    changedDuringLoads.add(changedDuringLoad)
    try {
      profiles = await deps.profiles.findAll()
      deps.feed.load(profiles)
      loaded = true
      for (const userId of changedDuringLoad) await refresh(userId)
    } finally {
      changedDuringLoads.delete(changedDuringLoad)
    }
    deps.logger.info(
      { scanned: profiles.length, listed: deps.feed.size, ms: Date.now() - started },
      'people feed loaded',
    )
  }

  const byUserId = async (event: { data: { userId: string } }) => refresh(event.data.userId)
  const consumer: ConsumerDefinition = {
    // One group per process: a shared group would give each event to one replica only.
    groupId: `people-feed.${hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`,
    useLedger: false,
    fromBeginning: false,
    handlers: {
      'user.profile-updated': byUserId,
      'worker-profile.updated': byUserId,
      'user.deletion-requested': byUserId,
      'user.deletion-cancelled': byUserId,
      'user.deleted': byUserId,
    },
  }

  return { load, apply, refresh, consumer, isLoaded: () => loaded }
}

export type PeopleFeedSync = ReturnType<typeof createPeopleFeedSync>
