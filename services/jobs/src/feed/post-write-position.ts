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

/**
 * Names a change of who may see a post's hidden fields (a request accepted or withdrawn, an
 * invitation), for everyone: the person it concerns is not the one who wrote it (the owner
 * decides, the requester reads). Grants carry no version, so the position names the moment
 * after the change was stored; an instance whose last read of the post's grants started
 * later holds it. One clock for all instances is assumed, as NTP keeps servers within
 * milliseconds of each other; the extra millisecond covers a read started in the same one.
 */
export function recordGrantsWrite(postId: string): void {
  recordWrittenPosition({ kind: 'grants', id: postId, version: Date.now() + 1 }, true)
}
