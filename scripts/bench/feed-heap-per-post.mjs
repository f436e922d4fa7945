#!/usr/bin/env node
// The jobs feed index's own heap per live post (docs/capacity.md): builds the
// index in this process from generated posts, collects garbage, and divides the heap it
// added by the posts. RSS (memory-per-item.mjs, feed-snapshot-load.mjs) adds the heap's slack
// and garbage; this is the structure alone, so two builds can be compared exactly.
//
//   node --expose-gc scripts/bench/feed-heap-per-post.mjs [--posts 100000] [--checkout /work/main]
//
// Without --checkout: this checkout's feed (columns, read-models' ColumnarFeed), loaded from
// its own snapshot records as an instance loads them. With --checkout DIR: DIR's built jobs
// service, loaded with the posts as the database driver answers them (what it did before
// snapshots). The memory counted is the heap plus the ArrayBuffers (typed arrays keep their
// contents outside the heap).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'
import { generatePosts } from './post-generator.mjs'

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    checkout: { type: 'string' },
    // This checkout only: what each part of the columnar feed holds, dropping one at a time.
    parts: { type: 'boolean', default: false },
  },
})
if (typeof gc !== 'function') throw new Error('run with node --expose-gc')
const POSTS = Number(args.posts)
const root = args.checkout ?? repoRoot
const fromJobs = createRequire(join(root, 'services', 'jobs', 'package.json'))
const { ObjectId } = fromJobs('mongodb')
const { derivedFields } = fromJobs('./dist/posts/post-input.js')
const { FeedIndex } = fromJobs('./dist/feed/feed-index.js')

// Two collections: the buffers a first one finds dead are counted as freed only after it.
const used = () => {
  gc()
  gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}
gc()
const before = used()
// What the load reads (driver documents, or snapshot lines), dropped once the index is built.
let source = []
let build
if (args.checkout) {
  for (const post of generatePosts({ count: POSTS, ObjectId, derivedFields })) source.push(post)
  build = () => source
} else {
  // The snapshot's lines, as the store reads them: written by a feed built here, then dropped.
  let writer = new FeedIndex()
  writer.load(generatePosts({ count: POSTS, ObjectId, derivedFields, newestFirst: true }))
  for (const record of writer.snapshotRecords().records) source.push(JSON.stringify(record))
  writer = null
  build = null
}
const feed = new FeedIndex()
if (build) feed.load(build())
else loadSnapshot(feed, source)

/** In a function of its own: the loader (which holds what it built) is gone once it returns. */
function loadSnapshot(into, lines) {
  const loader = into.snapshotLoader()
  for (const line of lines) loader.accept(JSON.parse(line))
  loader.finish()
}
source = null
gc()
const after = used()
console.log(
  `${root}: ${feed.size} live posts of ${POSTS}; heap and buffers added ${((after - before) / 1e6).toFixed(1)} MB, ` +
    `${((after - before) / feed.size).toFixed(0)} B per live post`,
)
globalThis.keep = feed
if (args.parts && !args.checkout) {
  // The ColumnarFeed's own fields (packages/read-models/src/feed/columnar-feed.ts), each
  // dropped in turn: the memory it frees is what it held.
  const columns = feed.feed
  const live = feed.size
  let last = used()
  const parts = []
  for (const field of [
    'cards',
    'intersections',
    'postings',
    'vocabulary',
    'byFilter',
    'all',
    'ids',
    'texts',
    'createdAt',
    'expiresAt',
    'sharedValues',
    'numberValues',
    'keySetOf',
    'strings',
    'stringIds',
    'keySets',
    'keySetIds',
    'keys',
  ]) {
    columns[field] = null
    gc()
    const now = used()
    parts.push(`${field} ${((last - now) / live).toFixed(1)}`)
    last = now
  }
  console.log(`bytes per live post, by part: ${parts.join(', ')}`)
}
