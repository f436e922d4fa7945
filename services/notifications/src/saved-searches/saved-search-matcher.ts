import type { DomainEvent, EventData } from '@marketplace/contracts/events'
import { savedSearchQueryOf } from '@marketplace/contracts/marketplace'
import type { NotificationsService } from '../notifications/notifications-service'
import {
  postMatches,
  preparePost,
  type MatchablePost,
  type SavedSearchIndex,
} from './saved-search-index'
import type { SavedSearchDocument, SavedSearchesRepository } from './saved-searches-repository'

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
  let caughtUpTo = new Date(0)
  let lastCatchUpAt = 0

  /** Loads every saved search (at start, before the group consumes). */
  async function load(): Promise<void> {
    const startedAt = new Date(now())
    for await (const search of deps.searches.all()) deps.index.put(search)
    caughtUpTo = new Date(startedAt.getTime() - CLOCK_SLACK_MS)
    lastCatchUpAt = now()
  }

  async function catchUp(): Promise<void> {
    if (now() - lastCatchUpAt < CATCH_UP_MS) return
    lastCatchUpAt = now()
    const changed = await deps.searches.changedSince(caughtUpTo)
    for (const search of changed) {
      deps.index.put(search)
      const readBack = search.updatedAt.getTime() - CLOCK_SLACK_MS
      if (readBack > caughtUpTo.getTime()) caughtUpTo = new Date(readBack)
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

  return { load, postPublished }
}

export type SavedSearchMatcher = ReturnType<typeof createSavedSearchMatcher>
