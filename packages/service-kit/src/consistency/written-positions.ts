/**
 * Where a write left an item, so the writer's next read can be served from a state that
 * already holds the write, whichever instance answers it.
 *
 * Every instance keeps its read models (the feeds) in memory and learns other instances'
 * writes from Kafka a few tens of milliseconds later. A person who writes and reads at once
 * may be sent to the instance that has not learned it yet: their new post is missing, their
 * post made private still shows its location. So a write answers with the items it changed
 * and their versions (`X-Read-After`), the gateway (and the web app) send them back on the
 * caller's next reads, and an instance that has not applied a version reads that item from
 * the database before it answers (read-models' consistency/read-your-writes.ts).
 *
 * A position is `<kind>:<id>@<version>`: the kind of item (`post`, `user`), its id, and its
 * `updatedAt` in milliseconds after the write, or `-` when the write deleted it. The format
 * is the same for every service; only the service that owns a kind reads its positions.
 */

/** Request and response header: the positions the caller wants its read to reflect. */
export const READ_AFTER_HEADER = 'x-read-after'
/**
 * Response header only: positions of writes that took something away from what others may
 * see (a post made private, an item deleted). The gateway sends these with everyone's reads
 * for a while, so a guest reading right after never sees what the owner just hid.
 */
export const READ_AFTER_EVERYONE_HEADER = 'x-read-after-everyone'
/**
 * Response header of a read that named positions: how many items the instance had to read from
 * the database first (0: it held them all). What the benchmark and the tests count.
 */
export const READ_AFTER_REFRESHED_HEADER = 'x-read-after-refreshed'
/** Positions a read takes into account at most; the rest are ignored (a header is bounded). */
export const MAX_READ_AFTER_POSITIONS = 128

export interface WrittenPosition {
  kind: string
  id: string
  /** The item's `updatedAt` (ms) after the write; `gone` when the write deleted it. */
  version: number | 'gone'
}

const KIND = /^[a-z]{1,16}$/
const ID = /^[\w-]{1,64}$/
const POSITION = /^([a-z]{1,16}):([\w-]{1,64})@(-|\d{1,15})$/

/** The position's text, as it travels in the headers. */
export function formatPosition(position: WrittenPosition): string {
  if (!KIND.test(position.kind) || !ID.test(position.id))
    throw new Error(`not a position: ${position.kind}:${position.id}`)
  const version = position.version === 'gone' ? '-' : String(Math.max(0, position.version))
  return `${position.kind}:${position.id}@${version}`
}

/**
 * The positions of one kind in a header's value (comma separated, several headers allowed),
 * at most MAX_READ_AFTER_POSITIONS; anything that does not read as a position is ignored: the
 * header is a hint, never a reason to refuse a read.
 */
export function parsePositions(
  header: string | string[] | undefined,
  kind: string,
): WrittenPosition[] {
  if (header === undefined || header === '') return []
  const positions: WrittenPosition[] = []
  const seen = new Set<string>()
  for (const line of Array.isArray(header) ? header : [header]) {
    for (const part of line.split(',')) {
      if (positions.length >= MAX_READ_AFTER_POSITIONS) return positions
      const match = POSITION.exec(part.trim())
      if (!match || match[1] !== kind) continue
      const text = match[0]
      if (seen.has(text)) continue
      seen.add(text)
      positions.push({
        kind,
        id: match[2]!,
        version: match[3] === '-' ? 'gone' : Number(match[3]),
      })
    }
  }
  return positions
}
