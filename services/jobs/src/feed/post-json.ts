import type { JobPost } from '@marketplace/contracts/api'
import { exactMiles, milesBetween, roundedMiles, type LatLon } from '@marketplace/geo'
import { geoOf, seesPrivateFields, type PostDocument } from '../posts/post-document'
import { toPostView } from '../posts/post-view'
import type { FeedIndex } from './feed-index'

/** JobPostSchema's compiled serializer: the fields it does not list never reach the text. */
export type PostSerializer = (view: JobPost) => string

/** A page asked `near` a point: each post's distance from it (miles, beside the slots). */
export interface PageDistances {
  from: LatLon
  miles: readonly number[]
}

/**
 * A card with its distance. Who may see the location gets it to a tenth of a mile; anyone else
 * gets the distance from the post's town, rounded (docs/distance.md). The fields are those of
 * JobPostSchema's distanceFields, appended to the serializer's text.
 */
function withDistance(card: string, miles: number, rounded: boolean): string {
  const shown = rounded ? roundedMiles(miles) : exactMiles(miles)
  return `${card.slice(0, -1)},"distanceMiles":${shown}${rounded ? ',"distanceRounded":true' : ''}}`
}

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
  distances?: PageDistances,
): Promise<string> {
  const guestView = (post: PostDocument) => serialize(toPostView(post, null))
  // Row numbers hold only until the feed changes: everything is taken from them before the
  // first await.
  const parts: Array<string | Promise<string>> = slots.map((slot, i) => {
    const miles = distances?.miles[i]
    let card = feed.card(slot, guestView)
    if (miles !== undefined) card = withDistance(card, miles, !feed.locationShown(slot))
    if (!viewerId) return card
    const postId = feed.idOf(slot)
    const authorized = accessOf(postId)
    if (!seesPrivateFields({ userID: feed.ownerOf(slot) }, viewerId, authorized)) return card
    return readPost(postId).then((post) => {
      if (!post) return card
      const text = serialize(toPostView(post, viewerId, accessOf(postId)))
      // An insider sees the location: the distance is from the post's own point.
      const geo = distances && geoOf(post)
      return geo ? withDistance(text, milesBetween(distances.from, geo), false) : text
    })
  })
  const texts = parts.some((part) => typeof part !== 'string') ? await Promise.all(parts) : parts
  return `[${texts.join(',')}]`
}
