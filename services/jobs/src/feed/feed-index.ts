import { FeedIndex as GenericFeedIndex, type FeedSchema } from '@marketplace/read-models/feed'
import { isLive, type PostDocument } from '../posts/post-document'
import { CATEGORIES } from '@marketplace/contracts/marketplace'

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
}

export interface FeedPage {
  posts: PostDocument[]
  total: number
}

/**
 * What a post answers to in the feed. A filter on location never matches a post whose owner
 * hid it: the answer would reveal the hidden value. The contact filter is on the method,
 * which everyone sees (issue 17 §1: the private part is the contact value, never indexed),
 * so it matches whatever displayContact says, as the post's card shows the method.
 */
const postFeedSchema: FeedSchema<PostDocument> = {
  isLive,
  filterValues(post) {
    const values: Array<[string, string]> = [['category', post.category]]
    if (post.displayLocation && post.location) values.push(['location', post.location])
    if (post.contact) values.push(['contact', post.contact])
    for (const payment of post.paymentType) values.push(['payment', payment])
    return values
  },
  searchWords: (post) => post.searchWords,
  expiresAt: (post) => post.expiresAt,
}

/**
 * The live posts in feed order per filter value (the shared in-memory index of
 * @marketplace/read-models/feed; docs/posts.md says why the database is not asked).
 */
export class FeedIndex {
  private readonly index: GenericFeedIndex<PostDocument>

  constructor(now: () => Date = () => new Date()) {
    this.index = new GenericFeedIndex(postFeedSchema, now)
  }

  get size(): number {
    return this.index.size
  }

  /** The live posts in feed order (a copy, for a snapshot). */
  items(): PostDocument[] {
    return this.index.items()
  }

  load(posts: Iterable<PostDocument>): void {
    this.index.load(posts)
  }

  apply(postId: string, post: PostDocument | null): void {
    this.index.apply(postId, post)
  }

  page(query: FeedQuery): FeedPage {
    const { page, pageSize, sort, ...filters } = query
    const { items, total } = this.index.page({ filters: { ...filters }, page, pageSize, sort })
    return { posts: items, total }
  }

  /** Live posts per category; the counts equal what the feed returns for each category. */
  categoryCounts(): Record<string, number> {
    // A category chosen explicitly is always one of CATEGORIES (post-input checks it), and
    // CATEGORIES ends with Uncategorized.
    return this.index.countsBy('category', CATEGORIES)
  }

  search(terms: readonly string[], limit: number): PostDocument[] {
    return this.index.search(terms, limit)
  }
}
