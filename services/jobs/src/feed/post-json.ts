import type { JobPost } from '@marketplace/contracts/api'
import { seesPrivateFields, type PostDocument } from '../posts/post-document'
import { toPostView } from '../posts/post-view'
import type { FeedIndex } from './feed-index'

/** JobPostSchema's compiled serializer: the fields it does not list never reach the text. */
export type PostSerializer = (view: JobPost) => string

/**
 * Feed posts as one JSON array. Everyone who is neither the owner nor authorized gets exactly
 * the guest view of a post, built from the feed's row (which holds nothing else) and cached by
 * the feed for the rows read most; a page is then twelve cached strings joined. An insider's
 * post is read again by `_id` (the feed does not hold what they may see) and given its full
 * view; should it be gone meanwhile, the guest view stands. Every text comes from the response
 * schema's serializer, so the feed keeps the schema as its privacy guard while Fastify sends
 * the joined text as it is.
 */
export async function feedJson(
  feed: FeedIndex,
  slots: readonly number[],
  viewerId: string | null,
  accessOf: (postId: string) => readonly string[],
  readPost: (postId: string) => Promise<PostDocument | null>,
  serialize: PostSerializer,
): Promise<string> {
  const guestView = (post: PostDocument) => serialize(toPostView(post, null))
  // Row numbers hold only until the feed changes: everything is taken from them before the
  // first await.
  const parts: Array<string | Promise<string>> = slots.map((slot) => {
    const card = feed.card(slot, guestView)
    if (!viewerId) return card
    const postId = feed.idOf(slot)
    const authorized = accessOf(postId)
    if (!seesPrivateFields({ userID: feed.ownerOf(slot) }, viewerId, authorized)) return card
    return readPost(postId).then((post) =>
      post ? serialize(toPostView(post, viewerId, accessOf(postId))) : card,
    )
  })
  const texts = parts.some((part) => typeof part !== 'string') ? await Promise.all(parts) : parts
  return `[${texts.join(',')}]`
}
