#!/usr/bin/env node
// Posts benchmark (issue 4): feed page 1, feed page 50 and search at 50 connections, direct
// to the jobs service, through the gateway and through the floor (minimal-proxy.mjs, a bare
// node:http + undici proxy: what any Node proxy hop costs here), in one run, over 100,000
// generated posts in the real FerretDB of infra/local. Both services run as their own processes (built dist).
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/jobs... --filter=@marketplace/gateway...
//   node scripts/bench/posts-feed.mjs [--posts 100000] [--duration 10] [--connections 50] [--keep]
//     [--pin] [--log-level warn|info] [--log-dir DIR] [--rounds 1]   (feed-bench-lib.mjs)
//
// Absolute times drift on a shared machine, so the results are also given as ratios taken
// in the same run: gateway ÷ direct throughput, and page 50 or search ÷ page 1 latency.
// It also times the same feed query asked of the database, which is why the feed is served
// from the in-process index (docs/posts.md).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot as root } from './infra-env.mjs'
import { feedBenchOptions, log, runFeedBenchmark, seededRandom } from './feed-bench-lib.mjs'

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

// ---- data: believable posts from a small vocabulary, deterministic (seeded) ----
const TITLES = [
  'Help moving a sofa', 'Move boxes to storage', 'Deep clean my apartment', 'Weekly house cleaning',
  'Fix a leaking faucet', 'Assemble IKEA wardrobe', 'Paint the living room', 'Set up my new laptop',
  'Fix home wifi router', 'Math tutoring for 8th grader', 'Spanish lessons for beginners', 'Walk my dog twice a day',
  'Cat sitter for the weekend', 'Pick up groceries', 'Deliver a parcel across town', 'Bartender for a birthday party',
  'Photographer for a small wedding', 'Mow the lawn', 'Rake leaves and trim hedges', 'Stand in line for tickets',
]
const INFOS = [
  'Third floor, no elevator. Bring gloves.', 'Two hours at most, tools provided.', 'Flexible on the time, weekends preferred.',
  'Quiet neighbourhood, parking available.', 'Please be on time and friendly.', 'Experience appreciated but not required.',
]
const LOCATIONS = ['Remote', 'New York NY', 'Los Angeles CA', 'Chicago IL', 'San Francisco CA', 'Boston MA', 'Seattle WA', 'Austin TX', 'Atlanta GA', 'Miami FL', 'Denver CO']
const PAYMENTS = ['Zelle', 'Cash App', 'Venmo', 'Cash', 'PayPal', 'Bank Transfer']
const CONTACTS = ['Email', 'Phone', 'WhatsApp', 'Telegram']

async function generate(db) {
  const { derivedFields } = requireFromJobs('./dist/posts/post-input.js')
  const next = seededRandom(42)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const posts = db.collection('posts')
  const owners = Array.from({ length: 2000 }, () => new ObjectId().toHexString())
  const start = Date.now() - POSTS * 60_000
  const started = Date.now()
  for (let done = 0; done < POSTS; ) {
    const batch = []
    for (let i = 0; i < 1000 && done < POSTS; i += 1, done += 1) {
      const fields = { title: `${pick(TITLES)} #${done}`, infos: pick(INFOS), expirationDate: null }
      const at = new Date(start + done * 60_000)
      batch.push({
        _id: new ObjectId().toHexString(),
        userID: pick(owners),
        location: pick(LOCATIONS),
        jobStartEnd: 'This weekend',
        salary: `$${20 + Math.floor(next() * 80)}`,
        paymentType: [pick(PAYMENTS), pick(PAYMENTS)].filter((v, k, a) => a.indexOf(v) === k),
        contact: pick(CONTACTS),
        displayLocation: next() > 0.1,
        displayContact: next() > 0.2,
        jobPicture: null,
        isOnline: next() > 0.05,
        takenDown: false,
        createdAt: at,
        updatedAt: at,
        ...fields,
        ...derivedFields(fields),
      })
    }
    await posts.insertMany(batch, { ordered: false })
    if (done % 20_000 === 0 || done === POSTS) log(`generated ${done}/${POSTS} posts (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  }
}

/** The same page-1 feed query asked of the database, for comparison (one run: ~30 s each). */
async function timeDatabaseQuery(db) {
  const times = []
  for (let i = 0; i < 1; i += 1) {
    const started = performance.now()
    await db.collection('posts').find({ isOnline: true, category: 'Cleaning' }).sort({ createdAt: -1, _id: -1 }).limit(12).toArray()
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
