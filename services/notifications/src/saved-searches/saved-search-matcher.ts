import type { DomainEvent, EventData } from '@marketplace/contracts/events'
import { savedSearchQueryOf } from '@marketplace/contracts/marketplace'
import type { NotificationsService } from '../notifications/notifications-service'
import {
  postMatches,
  preparePost,
  type MatchablePost,
  type SavedSearchIndex,
} from './saved-search-index'
import {
  CHANGE_BUCKET_MS,
  CHANGES_KEPT_MS,
  type SavedSearchDocument,
  type SavedSearchesRepository,
} from './saved-searches-repository'

/** How often the index catches up with searches saved or changed on other instances. */
const CATCH_UP_MS = 1000
/** Clocks of instances may differ by this much: a catch-up reads back this far. */
const CLOCK_SLACK_MS = 5000

/** What a match tells the search's owner, and where it leads (the search's page of the feed). */
export const savedSearchNotice = (searchName: string, postTitle: string) =>
  `New post for your saved search "${searchName}": "${postTitle}"`
export const savedSearchLink = (search: Pick<SavedSearchDocument, 'criteria'>) =>
  `/?${savedSearchQueryOf(search.criteria)}`
/** Once per post and saved search, whichever event (created, relisted) announced the post. */
export const savedSearchNoticeId = (searchId: string, postId: string, userId: string) =>
  `saved-search.${searchId}.${postId}:${userId}`

type PostEvent = DomainEvent<'post.created'> | DomainEvent<'post.updated'>

/**
 * A relist publishes the post again as new: post.updated whose createdAt is the relist's
 * instant, as is its updatedAt. Any other change keeps the first publication's createdAt.
 */
export function isNewOrRelisted(event: PostEvent): boolean {
  return event.type === 'post.created' || event.data.createdAt === event.data.updatedAt
}

const matchableOf = (data: EventData<'post.created'>): MatchablePost => ({
  postId: data.postId,
  ownerId: data.ownerId,
  title: data.title,
  infos: data.infos,
  location: data.location,
  category: data.category,
  paymentType: data.paymentType,
  contact: data.contact,
})

/**
 * Group "notifications-saved-searches": each new or relisted live post is matched against the
 * in-memory index, and each match is checked against the database (a search deleted, paused
 * or changed on another instance since the index saw it), then stored as a notification whose
 * id is the search's and the post's: a redelivery, or a relist of a post already told, finds
 * it stored and tells nobody twice. The live push, Web Push and e-mail follow the stored
 * notification as for every other kind.
 */
export function createSavedSearchMatcher(deps: {
  index: SavedSearchIndex
  searches: SavedSearchesRepository
  service: Pick<NotificationsService, 'recordNotice' | 'isOldNews'>
  isBlockedBetween: (userId: string, otherId: string) => Promise<boolean>
  distanceOf?: Parameters<typeof postMatches>[2]
  now?: () => number
}) {
  const now = deps.now ?? Date.now
  /** Changes noted before this instant (ms, less the clock slack) are in the index. */
  let caughtUpTo = 0
  let lastCatchUpAt = 0
  let lastDropAt = 0
  /** The change entries already applied, with their instant, until they leave the window. */
  const applied = new Map<string, number>()

  /** Loads every saved search (at start, before the group consumes). */
  async function load(): Promise<void> {
    const startedAt = now()
    for await (const search of deps.searches.all()) deps.index.put(search)
    caughtUpTo = startedAt - CLOCK_SLACK_MS
    lastCatchUpAt = now()
  }

  /**
   * Applies the searches saved, changed or deleted on other instances since the last time
   * (their noted changes, read back by the clock slack), each read again by `_id`.
   */
  async function catchUp(): Promise<void> {
    if (now() - lastCatchUpAt < CATCH_UP_MS) return
    const at = now()
    lastCatchUpAt = at
    // Changes this old may be dropped already (a database outage held the catch-up): the
    // whole collection is read again instead.
    if (at - caughtUpTo > CHANGES_KEPT_MS - CLOCK_SLACK_MS) return load()
    // A writer whose clock is ahead notes its change in a later bucket: read those too.
    const changes = await deps.searches.changesBetween(caughtUpTo, at + CLOCK_SLACK_MS)
    const fresh = changes.filter((change) => !applied.has(change.entry))
    const ids = [...new Set(fresh.map((change) => change.searchId))]
    if (ids.length > 0) {
      const current = await deps.searches.byIds(ids)
      for (const search of current) deps.index.put(search)
      const found = new Set(current.map((search) => search._id))
      for (const id of ids) if (!found.has(id)) deps.index.remove(id)
    }
    for (const change of fresh) applied.set(change.entry, change.at)
    caughtUpTo = Math.max(caughtUpTo, at - CLOCK_SLACK_MS)
    // What is before the first bucket read next time can never be read again.
    for (const [entry, changedAt] of applied)
      if (changedAt < caughtUpTo - CHANGE_BUCKET_MS) applied.delete(entry)
    if (at - lastDropAt >= CHANGES_KEPT_MS / 10) {
      lastDropAt = at
      await deps.searches.dropChangesBefore(new Date(at - CHANGES_KEPT_MS))
    }
  }

  /** Answers how many notices it stored (0 for a post that matched nothing new). */
  async function postPublished(event: PostEvent): Promise<number> {
    const { data } = event
    if (!isNewOrRelisted(event)) return 0
    // Only a live post is news: not a draft turned off, a taken-down or a filled one.
    if (!data.isOnline || data.takenDown === true) return 0
    if (deps.service.isOldNews(event)) return 0
    await catchUp()
    const post = matchableOf(data)
    const matched = deps.index.match(post)
    if (matched.length === 0) return 0
    const prepared = preparePost(post)
    let stored = 0
    const current = await deps.searches.byIds(matched.map((entry) => entry._id))
    for (const search of current) {
      // The index's copy may be older than the search: the stored one decides.
      deps.index.put(search)
      if (search.paused || search.userId === data.ownerId) continue
      if (!postMatches(search.criteria, prepared, deps.distanceOf)) continue
      if (await deps.isBlockedBetween(search.userId, data.ownerId)) continue
      const outcome = await deps.service.recordNotice(event, {
        id: savedSearchNoticeId(search._id, data.postId, search.userId),
        recipientId: search.userId,
        kind: 'saved-search',
        message: savedSearchNotice(search.name, data.title),
        link: savedSearchLink(search),
        savedSearchId: search._id,
      })
      if (outcome === 'stored') stored += 1
    }
    // Searches the index held but the database no longer has: deleted on another instance.
    const found = new Set(current.map((search) => search._id))
    for (const entry of matched) if (!found.has(entry._id)) deps.index.remove(entry._id)
    return stored
  }

  return { load, catchUp, postPublished }
}

export type SavedSearchMatcher = ReturnType<typeof createSavedSearchMatcher>
