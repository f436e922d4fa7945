import { seesPrivateFields, type PostDocument } from '../posts/post-document'
import { toPostView } from '../posts/post-view'

/**
 * Posts as JSON text, cached per stored post object. Everyone who is neither the owner nor
 * authorized gets exactly the guest view of a post, so that text is built once per version
 * of the post (a change replaces the object, which drops its entry) instead of once per
 * request: a feed page becomes twelve cached strings joined. Insiders get a fresh view.
 */
const publicJson = new WeakMap<PostDocument, string>()

export function postJson(
  post: PostDocument,
  viewerId: string | null,
  authorizedUsers: readonly string[],
): string {
  if (viewerId && seesPrivateFields(post, viewerId, authorizedUsers))
    return JSON.stringify(toPostView(post, viewerId, authorizedUsers))
  let json = publicJson.get(post)
  if (json === undefined) {
    json = JSON.stringify(toPostView(post, null))
    publicJson.set(post, json)
  }
  return json
}

export function postsJson(
  posts: readonly PostDocument[],
  viewerId: string | null,
  accessOf: (postId: string) => readonly string[],
): string {
  return `[${posts.map((post) => postJson(post, viewerId, accessOf(post._id))).join(',')}]`
}
