import { recordWrittenPosition } from '@marketplace/service-kit'
import { isLive, type PostDocument } from '../posts/post-document'

/**
 * Names a post this request wrote in its answer (service-kit's write-recorder.ts): the post's
 * id and `updatedAt`, or its deletion. A change that takes something away from guests (the
 * post leaves the feed, or its location or contact value is hidden) is marked for everyone:
 * a guest reading right after, on an instance that has not learned it yet, must not be shown
 * what the owner just hid.
 */
export function recordPostWrite(postId: string, post: PostDocument | null): void {
  const version = post ? post.updatedAt.getTime() : 'gone'
  const hidesSomething = !post || !isLive(post) || !post.displayLocation || !post.displayContact
  recordWrittenPosition({ kind: 'post', id: postId, version }, hidesSomething)
}
