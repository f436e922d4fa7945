import { CATEGORIES } from '@marketplace/contracts/marketplace'
import type { LatLon } from '@marketplace/geo'
import {
  ColumnarFeed,
  type FeedPosition,
  type HiddenRows,
  type NearQuery,
} from '@marketplace/read-models/feed'
import type { PostDocument } from '../posts/post-document'
import { locationShown, postFeedSchema, postRow, publicPost } from './post-row'

export interface FeedFilters {
  category?: string
  location?: string
  payment?: string
  contact?: string
}

export interface FeedQuery extends FeedFilters {
  page: number
  pageSize: number
  sort: 'desc' | 'asc'
  /** A cursor: the page starts right after this post (then `page` is not read). */
  after?: FeedPosition
  /** Owners whose posts this reader must not see (blocks, docs/blocking.md). */
  hiddenOwners?: ReadonlySet<string>
  /** Only posts within so many miles of a point, in feed order or nearest first. */
  near?: NearQuery
}

/** Row numbers of the feed (valid until it next changes), the total matching, where it starts. */
export interface FeedPage {
  slots: number[]
  total: number
  start: number
  /** With `near`: each post's distance in miles from its public point, beside `slots`. */
  distances?: number[]
}

/**
 * The live posts, each as its public card's values, in feed order per filter value and per
 * search word (read-models' ColumnarFeed; docs/posts.md says why the database is not asked,
 * docs/scale.md what a post costs in memory).
 */
export class FeedIndex {
  private readonly feed: ColumnarFeed

  constructor(private readonly now: () => Date = () => new Date()) {
    this.feed = new ColumnarFeed(postFeedSchema, now)
  }

  get size(): number {
    return this.feed.size
  }

  /** Replaces the content with these posts (a load from the database); any order. */
  load(posts: Iterable<PostDocument>): number {
    return this.feed.load(liveRows(posts, this.now()))
  }

  /** Applies the current state of one post: held when live, removed otherwise. */
  apply(postId: string, post: PostDocument | null): void {
    this.feed.apply(postId, post && postRow(post, this.now()))
  }

  page(query: FeedQuery): FeedPage {
    const { page, pageSize, sort, after, hiddenOwners, near, ...filters } = query
    const hide = hidingOwners(hiddenOwners)
    return this.feed.page({ filters: { ...filters }, page, pageSize, sort, after, hide, near })
  }

  /** A row's place in the feed's order, for the cursor of the page it ends. */
  positionOf(slot: number): FeedPosition {
    return this.feed.positionOf(slot)
  }

  search(terms: readonly string[], limit: number, hiddenOwners?: ReadonlySet<string>): number[] {
    return this.feed.search(terms, limit, hidingOwners(hiddenOwners))
  }

  /**
   * The newest posts matching every term within `near`'s distance, at most `limit`, each with
   * its distance (nearest first when asked).
   */
  searchNear(
    terms: readonly string[],
    limit: number,
    near: NearQuery,
    hiddenOwners?: ReadonlySet<string>,
  ): FeedPage {
    const within = (slot: number) => {
      const miles = this.feed.distanceOf(slot, near)
      return miles !== undefined && miles <= near.miles
    }
    const slots = this.feed.search(terms, limit, hidingOwners(hiddenOwners), within)
    let found = slots.map((slot) => ({ slot, miles: this.feed.distanceOf(slot, near)! }))
    if (near.order === 'distance') found = found.sort((a, b) => a.miles - b.miles)
    return {
      slots: found.map(({ slot }) => slot),
      distances: found.map(({ miles }) => miles),
      total: found.length,
      start: 0,
    }
  }

  /** Whether everyone sees the post's location (else its point and distance are its town's). */
  locationShown(slot: number): boolean {
    return locationShown(this.feed.row(slot))
  }

  /** Miles from a point to a post's public point, or undefined when it has none. */
  distanceOf(slot: number, from: LatLon): number | undefined {
    return this.feed.distanceOf(slot, from)
  }

  /** Live posts per category; the counts equal what the feed returns for each category. */
  categoryCounts(): Record<string, number> {
    // A category chosen explicitly is always one of CATEGORIES (post-input checks it), and
    // CATEGORIES ends with Uncategorized.
    return this.feed.countsBy('category', CATEGORIES)
  }

  idOf(slot: number): string {
    return this.feed.idOf(slot)
  }

  ownerOf(slot: number): string {
    return this.feed.sharedOf(slot, 0)
  }

  /** The post of a row as a guest sees it (hidden values absent). */
  post(slot: number): PostDocument {
    return publicPost(this.feed.row(slot))
  }

  /** Every live post in feed order, as a guest sees it (tests). */
  posts(): PostDocument[] {
    return this.feed.rows().map(publicPost)
  }

  /** A row's card text as `build` makes it of the guest's post, cached for rows read often. */
  card(slot: number, build: (post: PostDocument) => string): string {
    return this.feed.card(slot, (row) => build(publicPost(row)))
  }

  snapshotLoader() {
    return this.feed.snapshotLoader()
  }

  snapshotRecords() {
    return this.feed.snapshotRecords()
  }
}

/** The posts of these owners (the owner is the row's first shared column, post-row.ts). */
function hidingOwners(owners: ReadonlySet<string> | undefined): HiddenRows | undefined {
  if (!owners || owners.size === 0) return undefined
  return { shared: { column: 0, values: owners } }
}

function* liveRows(posts: Iterable<PostDocument>, now: Date) {
  for (const post of posts) {
    const row = postRow(post, now)
    if (row) yield row
  }
}
