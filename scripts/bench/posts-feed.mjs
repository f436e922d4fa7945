#!/usr/bin/env node
// Posts benchmark: feed page 1, feed page 50 and search at 50 connections, direct
// to the jobs service, through the gateway and through the floor (minimal-proxy.mjs, a bare
// node:http + undici proxy: what any Node proxy hop costs here), in one run, over 100,000
// generated posts in the real FerretDB of infra/local. Both services run as their own processes (built dist).
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/jobs... --filter=@marketplace/gateway...
//   node scripts/bench/posts-feed.mjs [--posts 100000] [--duration 10] [--connections 50] [--keep]
//     [--pin] [--log-level warn|info] [--log-dir DIR] [--rounds 1] [--baseline-gateway DIR]   (feed-bench-lib.mjs)
//
// Absolute times drift on a shared machine, so the results are also given as ratios taken
// in the same run: gateway ÷ direct throughput, and page 50 or search ÷ page 1 latency.
// It also times the same feed query asked of the database, which is why the feed is served
// from the in-process index (docs/posts.md).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot as root } from './infra-env.mjs'
import { feedBenchOptions, log, runFeedBenchmark } from './feed-bench-lib.mjs'
import { generatePosts } from './post-generator.mjs'

const jobsDir = join(root, 'services', 'jobs')
const requireFromJobs = createRequire(join(jobsDir, 'package.json'))
const { MongoClient, ObjectId } = requireFromJobs('mongodb')

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    ...feedBenchOptions,
  },
})
const POSTS = Number(args.posts)

// ---- data: believable posts from a small vocabulary, deterministic (post-generator.mjs) ----
async function generate(db) {
  const { derivedFields } = requireFromJobs('./dist/posts/post-input.js')
  const posts = db.collection('posts')
  const started = Date.now()
  let batch = []
  let done = 0
  for (const post of generatePosts({ count: POSTS, ObjectId, derivedFields })) {
    batch.push(post)
    if (batch.length < 1000 && done + batch.length < POSTS) continue
    await posts.insertMany(batch, { ordered: false })
    done += batch.length
    batch = []
    if (done % 20_000 === 0 || done === POSTS)
      log(`generated ${done}/${POSTS} posts (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  }
}

/** The same page-1 feed query asked of the database, for comparison (one run: ~30 s each). */
async function timeDatabaseQuery(db) {
  const times = []
  for (let i = 0; i < 1; i += 1) {
    const started = performance.now()
    await db
      .collection('posts')
      .find({ isOnline: true, category: 'Cleaning' })
      .sort({ createdAt: -1, _id: -1 })
      .limit(12)
      .toArray()
    times.push(performance.now() - started)
  }
  return times[0]
}

runFeedBenchmark({
  serviceName: 'jobs',
  port: 4903,
  MongoClient,
  generate,
  timeDatabaseQuery,
  firstPagePath: '/api/jobs?page=1',
  scenarios: [
    ['feed page 1', '/api/jobs?page=1&sort=desc'],
    ['feed page 50', '/api/jobs?page=50&sort=desc'],
    ['search', '/api/jobs?search=clean&limit=10'],
  ],
  args,
}).catch((error) => {
  console.error(error)
  process.exit(1)
})
