import type { JobPost } from '@marketplace/contracts/api'
import { seesPrivateFields, type PostDocument } from '../posts/post-document'
import { toPostView } from '../posts/post-view'

/** JobPostSchema's compiled serializer: the fields it does not list never reach the text. */
export type PostSerializer = (view: JobPost) => string

/**
 * Posts as JSON text, cached per stored post object. Everyone who is neither the owner nor
 * authorized gets exactly the guest view of a post, so that text is built once per version
 * of the post (a change replaces the object, which drops its entry) instead of once per
 * request: a feed page becomes twelve cached strings joined. Insiders get a fresh view.
 * Every text comes from the response schema's serializer, so the feed keeps the schema as
 * its privacy guard while Fastify sends the joined text as it is.
 */
const publicJson = new WeakMap<PostDocument, string>()

export function postJson(
  post: PostDocument,
  viewerId: string | null,
  authorizedUsers: readonly string[],
  serialize: PostSerializer,
): string {
  if (viewerId && seesPrivateFields(post, viewerId, authorizedUsers))
    return serialize(toPostView(post, viewerId, authorizedUsers))
  let json = publicJson.get(post)
  if (json === undefined) {
    json = serialize(toPostView(post, null))
    publicJson.set(post, json)
  }
  return json
}

export function postsJson(
  posts: readonly PostDocument[],
  viewerId: string | null,
  accessOf: (postId: string) => readonly string[],
  serialize: PostSerializer,
): string {
  return `[${posts.map((post) => postJson(post, viewerId, accessOf(post._id), serialize)).join(',')}]`
}
