#!/usr/bin/env node
// The jobs feed index's own heap per live post (issue 19 §1, docs/capacity.md): builds the
// index in this process from generated posts, collects garbage, and divides the heap it
// added by the posts. RSS (memory-per-item.mjs, feed-snapshot-load.mjs) adds the heap's slack
// and garbage; this is the structure alone, so two builds can be compared exactly.
//
//   node --expose-gc scripts/bench/feed-heap-per-post.mjs [--posts 100000] [--checkout /work/main]
//
// Without --checkout: this checkout's feed, loaded as from a snapshot (each post parsed from
// its snapshot line, post-record.ts). With --checkout DIR: DIR's built jobs service, loaded
// with the posts as the database driver answers them (what it did before snapshots).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'
import { generatePosts } from './post-generator.mjs'

const { values: args } = parseArgs({
  options: { posts: { type: 'string', default: '100000' }, checkout: { type: 'string' } },
})
if (typeof gc !== 'function') throw new Error('run with node --expose-gc')
const POSTS = Number(args.posts)
const root = args.checkout ?? repoRoot
const fromJobs = createRequire(join(root, 'services', 'jobs', 'package.json'))
const { ObjectId } = fromJobs('mongodb')
const { derivedFields } = fromJobs('./dist/posts/post-input.js')
const { FeedIndex } = fromJobs('./dist/feed/feed-index.js')

gc()
const before = process.memoryUsage().heapUsed
// What the load reads (driver documents, or snapshot lines), dropped once the index is built.
let source = []
let build
if (args.checkout) {
  for (const post of generatePosts({ count: POSTS, ObjectId, derivedFields })) source.push(post)
  build = () => source
} else {
  const { toRecord, fromRecord } = fromJobs('./dist/feed/post-record.js')
  const { createInterner } = createRequire(join(root, 'packages', 'read-models', 'package.json'))(
    './dist/feed/index.js',
  )
  for (const post of generatePosts({ count: POSTS, ObjectId, derivedFields, newestFirst: true }))
    source.push(JSON.stringify({ p: toRecord(post) }))
  const intern = createInterner()
  build = () => source.map((line) => fromRecord(JSON.parse(line).p, intern))
}
const feed = new FeedIndex()
feed.load(build())
source = null
gc()
const after = process.memoryUsage().heapUsed
console.log(
  `${root}: ${feed.size} live posts of ${POSTS}; heap added ${((after - before) / 1e6).toFixed(1)} MB, ` +
    `${((after - before) / feed.size).toFixed(0)} B per live post`,
)
globalThis.keep = feed
