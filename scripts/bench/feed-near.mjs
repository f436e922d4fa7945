// What a "within N miles" page costs the jobs feed at a million posts (docs/distance.md): the
// service's own FeedIndex (its build: pnpm turbo run build --filter=@marketplace/jobs...) loaded
// with the feed benchmarks' posts (post-generator.mjs: ten US cities and Remote, so ~90,000 posts
// share each city's point: the densest case), then pages of 12 asked near a place. Each question
// is asked `rounds` times, each time after a change to the feed (one post applied again), so the
// answer is computed afresh, never the cached one; a filtered page and page 1 for comparison.
// Prints p50 / p99 wall time and the mean CPU time per page, in ms, and the load average.
// Usage: node --expose-gc scripts/bench/feed-near.mjs [--posts 1000000] [--rounds 200]
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'
import { generatePosts } from './post-generator.mjs'

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '200' },
  },
})
const POSTS = Number(values.posts)
const ROUNDS = Number(values.rounds)
const fromJobs = createRequire(join(repoRoot, 'services', 'jobs', 'package.json'))
const { ObjectId } = fromJobs('mongodb')
const { derivedFields } = fromJobs('./dist/posts/post-input.js')
const { FeedIndex } = fromJobs('./dist/feed/feed-index.js')
const { resolvePlace } = fromJobs('@marketplace/geo')

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')
console.log(`load average before: ${load()}`)
const feed = new FeedIndex()
let started = Date.now()
// Only a thousand posts are kept (to apply again between asks): a million documents held by
// the benchmark would make every major collection, and so the timings, the benchmark's own.
const posts = []
feed.load(
  (function* () {
    for (const post of generatePosts({ count: POSTS, ObjectId, derivedFields })) {
      if (posts.length < 1000) posts.push(post)
      yield post
    }
  })(),
)
console.log(`${feed.size} live posts loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`)
global.gc?.()

const near = (place, miles, order) => {
  const point = resolvePlace(place)
  return { lat: point.lat, lon: point.lon, miles, order }
}
const base = { page: 1, pageSize: 12, sort: 'desc' }
const questions = [
  ['page 1, no filter', () => base],
  ['filtered page (Cleaning, Cash)', () => ({ ...base, category: 'Cleaning', payment: 'Cash' })],
  ['within 25 mi of Austin, TX', () => ({ ...base, near: near('Austin, TX', 25, 'feed') })],
  [
    'within 25 mi of Austin, TX, page 50',
    () => ({ ...base, page: 50, near: near('Austin, TX', 25, 'feed') }),
  ],
  [
    'nearest first within 50 mi of Austin, TX',
    () => ({ ...base, near: near('Austin, TX', 50, 'distance') }),
  ],
  [
    'within 50 mi of New York, NY, Cleaning',
    () => ({ ...base, category: 'Cleaning', near: near('New York, NY', 50, 'feed') }),
  ],
  [
    'within 10 mi of Round Rock, TX (none there)',
    () => ({ ...base, near: near('Round Rock, TX', 10, 'feed') }),
  ],
]

const rows = []
let touched = 0
for (const [name, make] of questions) {
  const query = make()
  const walls = []
  let cpu = 0
  let total = 0
  for (let round = 0; round < ROUNDS; round += 1) {
    // A change between asks: the cached answers are stale, each page is computed afresh.
    const post = posts[touched++ % posts.length]
    feed.apply(post._id, post)
    const cpuBefore = process.cpuUsage()
    started = performance.now()
    total = feed.page(query).total
    walls.push(performance.now() - started)
    const used = process.cpuUsage(cpuBefore)
    cpu += (used.user + used.system) / 1000
  }
  walls.sort((a, b) => a - b)
  const at = (q) => walls[Math.min(walls.length - 1, Math.floor(q * walls.length))]
  rows.push({ name, total, p50: at(0.5), p99: at(0.99), cpu: cpu / ROUNDS })
}
console.log(
  `\n${new Date().toISOString()}, ${POSTS.toLocaleString('en')} posts (${feed.size.toLocaleString('en')} live), ${ROUNDS} asks each, load average ${load()}\n`,
)
console.log(
  '| page of 12, computed afresh | matches | p50 ms | p99 ms | CPU ms |\n|---|---:|---:|---:|---:|',
)
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.total.toLocaleString('en')} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.cpu.toFixed(1)} |`,
  )
