#!/usr/bin/env node
// Read models that load in seconds: how long a new jobs (or people) instance
// takes from process start to /readyz 200, and how much memory it holds, loading its feed from
// the database versus from the snapshot (packages/read-models/src/snapshot), in one run; then
// direct p99 of feed page 1, page 50, a filtered page and search at 50 connections on the
// instance loaded from the snapshot.
//
//   MARKETPLACE_PORT_OFFSET=10000 bash infra/local/infra.sh up
//   pnpm turbo run build --filter=@marketplace/jobs... --filter=@marketplace/people...
//   node scripts/bench/feed-snapshot-load.mjs [--posts 100000] [--duration 10] [--connections 50]
//   node scripts/bench/feed-snapshot-load.mjs --posts 1000000 --snapshot-only
//   node scripts/bench/feed-snapshot-load.mjs --workers 200000 --snapshot-only   (people)
//
// --workers N measures the people service instead, with N workers (worker-generator.mjs).
// Default: the posts are written to FerretDB, instance A loads them from the database (today's
// path) and writes the snapshot, instance B then loads from it. --snapshot-only skips the
// database (FerretDB takes minutes per 100,000 posts to write and to scan): the snapshot is
// written from the same generated posts by the service's own feed and writer (its build's
// FeedIndex or createPeopleFeed, and the snapshot store), naming the topics' ends, and B
// loads from it; the database then holds none of them, which only the catch-up reads.
// An empty instance gives the resident memory without posts: (B - empty) / posts is the
// memory per post. Ports follow MARKETPLACE_PORT_OFFSET (default 0): 4903 + offset onwards.
// --baseline DIR starts DIR's build of the service on the same database in the same run.
// The instances run with the service's Deployment's NODE_OPTIONS and MALLOC_* settings
// (infra/k8s/base/<service>.yaml); --node-options=... and --malloc glibc change them. Beside
// each RSS the report gives where the memory is: resident by kind of mapping (/proc smaps)
// and the V8 heap's spaces (heap-report.cjs, preloaded into the instances).
import { randomBytes, generateKeyPairSync } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { infraEnv, repoRoot } from './infra-env.mjs'
import { log, startProcess } from './feed-bench-lib.mjs'
import { generatePosts } from './post-generator.mjs'
import { generateWorkers } from './worker-generator.mjs'

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    workers: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'snapshot-only': { type: 'boolean', default: false },
    // Another checkout's built jobs service (e.g. /work/main), loaded from the same database
    // in the same run: the load and the memory before this change.
    baseline: { type: 'string' },
    settle: { type: 'string', default: '5' },
    // The instances' NODE_OPTIONS (default: what the service's Deployment gives it,
    // infra/k8s/base/<service>.yaml; --node-options= for V8's defaults).
    'node-options': { type: 'string' },
    // The instances' glibc malloc settings (MALLOC_*): 'deployed' (the Deployment's, default)
    // or 'glibc' (its defaults).
    malloc: { type: 'string', default: 'deployed' },
  },
})
const PEOPLE = args.workers !== undefined
const POSTS = Number(PEOPLE ? args.workers : args.posts)
const OFFSET = Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0)
const SERVICE = PEOPLE ? 'people' : 'jobs'
const serviceDir = join(repoRoot, 'services', SERVICE)
const fromService = createRequire(join(serviceDir, 'package.json'))
const { MongoClient, ObjectId } = fromService('mongodb')
/** What differs between the two services: data, the feed that writes the snapshot, routes. */
const subject = PEOPLE
  ? (() => {
      const fields = fromService('./dist/profiles/worker-fields.js')
      const { createPeopleFeed, PEOPLE_FEED_MODEL } = fromService('./dist/feed/people-feed.js')
      return {
        collection: 'profiles',
        model: PEOPLE_FEED_MODEL,
        // people-feed.ts's handlers: the topics its group follows.
        events: [
          'user.profile-updated',
          'worker-profile.updated',
          'user.deletion-requested',
          'user.deletion-cancelled',
          'user.deleted',
          'worker.rated',
        ],
        newFeed: createPeopleFeed,
        generate: (options) => generateWorkers({ ...options, ...fields }),
        route: '/api/people',
        filtered: 'category=Moving&payment=Cash',
        search: 'mov',
      }
    })()
  : (() => {
      const { derivedFields } = fromService('./dist/posts/post-input.js')
      const { FeedIndex } = fromService('./dist/feed/feed-index.js')
      const { FEED_MODEL } = fromService('./dist/feed/feed-sync.js')
      return {
        collection: 'posts',
        model: FEED_MODEL,
        // feed-sync.ts's handlers: the topics its group follows.
        events: [
          'post.created',
          'post.updated',
          'post.deleted',
          'job-request.decided',
          'job-request.deleted',
          'people-request.decided',
          'people-request.deleted',
        ],
        newFeed: () => new FeedIndex(),
        generate: (options) => generatePosts({ ...options, derivedFields }),
        route: '/api/jobs',
        filtered: 'category=Cleaning&payment=Cash',
        search: 'clean',
      }
    })()
const fromReadModels = createRequire(join(repoRoot, 'packages', 'read-models', 'package.json'))
const { createS3SnapshotStore, endPositions, topicsOf } = fromReadModels('./dist/snapshot/index.js')
const { Kafka, logLevel } = fromReadModels('kafkajs')
const autocannon = createRequire(join(repoRoot, 'package.json'))('autocannon')
/** The places the generated posts and workers are in (post-generator.mjs), asked about by distance. */
const NEAR_CITIES = [
  'New York, NY',
  'Los Angeles, CA',
  'Chicago, IL',
  'San Francisco, CA',
  'Boston, MA',
  'Seattle, WA',
  'Austin, TX',
  'Atlanta, GA',
  'Miami, FL',
  'Denver, CO',
]

const infra = infraEnv()
/**
 * The environment values of the service's Deployment (infra/k8s/base/<service>.yaml) that
 * shape its memory: NODE_OPTIONS and glibc's MALLOC_* (`- { name: X, value: Y }` lines).
 */
const deployedEnv = (() => {
  const yaml = readFileSync(join(repoRoot, 'infra', 'k8s', 'base', `${SERVICE}.yaml`), 'utf8')
  const env = {}
  for (const [, name, value] of yaml.matchAll(
    /name: (NODE_OPTIONS|MALLOC_[A-Z_]+), value: "?([^"}]*?)"? }/g,
  ))
    env[name] = value.trim()
  return env
})()
const nodeOptions = args['node-options'] ?? deployedEnv.NODE_OPTIONS ?? ''
const mallocEnv = Object.fromEntries(
  Object.entries(args.malloc === 'glibc' ? {} : deployedEnv).filter(([name]) =>
    name.startsWith('MALLOC_'),
  ),
)
/** glibc's malloc settings the instances get, if any. */
const mallocSettings = () =>
  Object.entries({ ...process.env, ...mallocEnv })
    .filter(([name]) => name.startsWith('MALLOC_'))
    .map(([name, value]) => `, ${name}=${value}`)
    .join('')
const heapReportFile = join(tmpdir(), `feed-snapshot-load-${process.pid}.json`)
/**
 * Where an instance's memory is (scripts/bench/heap-report.cjs, preloaded): its heap used and
 * total, the young generation (new space), the card texts and the buffers outside the heap.
 */
async function heapReport(pid) {
  rmSync(heapReportFile, { force: true })
  process.kill(pid, 'SIGUSR2')
  for (let i = 0; i < 50; i += 1) {
    await sleep(100)
    try {
      return JSON.parse(readFileSync(heapReportFile, 'utf8'))
    } catch {}
  }
  return null
}
/** Resident memory by kind of mapping (/proc/<pid>/smaps): file-backed, malloc's, other anonymous. */
function residentByKind(pid) {
  const kinds = { file: 0, brk: 0, anonymous: 0 }
  let kind = 'anonymous'
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/)
    if (mapping)
      kind = mapping[2] === '[heap]' ? 'brk' : mapping[2].startsWith('/') ? 'file' : 'anonymous'
    const rss = line.match(/^Rss:\s+(\d+) kB/)
    if (rss) kinds[kind] += Number(rss[1]) / 1024
  }
  return `file-backed ${kinds.file.toFixed(0)} MB, brk heap ${kinds.brk.toFixed(0)} MB, other anonymous ${kinds.anonymous.toFixed(0)} MB`
}
const MB = (bytes) => (bytes / 1024 / 1024).toFixed(0)
const describeHeap = (report) =>
  report
    ? `heap used ${MB(report.memory.heapUsed)} MB of ${MB(report.memory.heapTotal)} MB (new space ${MB(report.spaces.new_space?.size ?? 0)} MB, old ${MB(report.spaces.old_space?.size ?? 0)} MB, code ${MB(report.spaces.code_space?.size ?? 0)} MB, large objects ${MB(report.spaces.large_object_space?.size ?? 0)} MB), external ${MB(report.memory.external)} MB (array buffers ${MB(report.memory.arrayBuffers)} MB), heap limit ${MB(report.heapLimit)} MB`
    : 'no heap report'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const rssMb = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024
/** User + system CPU seconds of a process so far (/proc, USER_HZ 100). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const publicKey = generateKeyPairSync('ed25519')
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString()
const run = randomBytes(4).toString('hex')
const snapshotEnv = {
  SNAPSHOT_S3_ENDPOINT: infra.S3_ENDPOINT,
  SNAPSHOT_S3_ACCESS_KEY: infra.S3_ACCESS_KEY,
  SNAPSHOT_S3_SECRET_KEY: infra.S3_SECRET_KEY,
  SNAPSHOT_S3_REGION: infra.S3_REGION,
  SNAPSHOT_S3_PREFIX: `bench-${run}/`,
}
const store = createS3SnapshotStore({
  endpoint: infra.S3_ENDPOINT,
  region: infra.S3_REGION,
  accessKeyId: infra.S3_ACCESS_KEY,
  secretAccessKey: infra.S3_SECRET_KEY,
  bucket: 'marketplace-read-models',
  prefix: snapshotEnv.SNAPSHOT_S3_PREFIX,
})

/** Starts an instance; answers its ready time (process start to /readyz 200) and RSS. */
async function startInstance(label, database, port, { snapshots = true, dir = serviceDir } = {}) {
  const mongoUrl = `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`
  const started = Date.now()
  const service = startProcess(
    `${SERVICE} (${label})`,
    dir,
    {
      SERVICE_NAME: SERVICE,
      MONGO_URL: mongoUrl,
      KAFKA_BROKERS: infra.KAFKA_BROKERS,
      KAFKA_GROUP_PREFIX: `bench-${run}-${label}-`,
      JWT_PUBLIC_KEY: publicKey,
      NODE_OPTIONS: nodeOptions,
      ...mallocEnv,
      HEAP_REPORT_FILE: heapReportFile,
      ...(snapshots ? snapshotEnv : {}),
    },
    port,
    { nodeArgs: ['-r', join(repoRoot, 'scripts', 'bench', 'heap-report.cjs')] },
  )
  await service.ready(3_600_000)
  const readyS = (Date.now() - started) / 1000
  // CPU time the process spent until ready: what the load costs whatever else the shared
  // cores ran meanwhile (wall time on a core of its own would come close to it).
  const cpuS = cpuSeconds(service.child.pid)
  log(`${label}: ready in ${readyS.toFixed(1)} s (${cpuS.toFixed(1)} CPU s)`)
  await sleep(Number(args.settle) * 1000)
  const rss = rssMb(service.child.pid)
  const heap = await heapReport(service.child.pid)
  log(
    `${label}: ${rss.toFixed(0)} MB resident (${residentByKind(service.child.pid)}); ${describeHeap(heap)}`,
  )
  return { service, readyS, cpuS, rss, heap }
}

function cannon(url, requests) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        connections: Number(args.connections),
        duration: Number(args.duration),
        ...(requests && { requests }),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  )
}

/**
 * A snapshot of `items` as a running instance writes one: the service's own feed (from its
 * build) loads them and gives its records, covering the topics up to their ends.
 */
async function writeSnapshotOf(items) {
  const kafka = new Kafka({ brokers: infra.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING })
  const handlers = Object.fromEntries(subject.events.map((type) => [type, 1]))
  const positions = await endPositions(kafka, topicsOf(handlers))
  const started = Date.now()
  const feed = subject.newFeed()
  feed.load(items)
  const { count, records } = feed.snapshotRecords()
  const { bytes } = await store.write(
    { format: 1, model: subject.model, takenAt: new Date().toISOString(), positions, count },
    records,
  )
  log(
    `snapshot: ${count} live, ${(bytes / 1e6).toFixed(1)} MB gzipped, built and written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
  return bytes
}

const database = `bench_snapshot_${run}`
const emptyDatabase = `bench_snapshot_empty_${run}`
const client = new MongoClient(`${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`)
await client.connect()
const children = []
const rows = []
try {
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')
  log(`load average before: ${load()}`)
  log(`instances' NODE_OPTIONS: ${nodeOptions || '(none)'}${mallocSettings()}`)
  const empty = await startInstance('empty', emptyDatabase, 4903 + OFFSET, { snapshots: false })
  children.push(empty.service.child)
  empty.service.child.kill('SIGTERM')

  let snapshotBytes
  let fromDatabase = null
  let baseline = null
  if (args['snapshot-only']) {
    snapshotBytes = await writeSnapshotOf(
      subject.generate({ count: POSTS, ObjectId, newestFirst: true }),
    )
  } else {
    const started = Date.now()
    const posts = client.db(database).collection(subject.collection)
    let batch = []
    let written = 0
    for (const post of subject.generate({ count: POSTS, ObjectId })) {
      batch.push(post)
      if (batch.length < 1000) continue
      await posts.insertMany(batch, { ordered: false })
      written += batch.length
      batch = []
      if (written % 50_000 === 0)
        log(`written ${written}/${POSTS} (${((Date.now() - started) / 1000).toFixed(0)} s)`)
    }
    if (batch.length > 0) await posts.insertMany(batch, { ordered: false })
    log(`database: ${POSTS} posts written in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    if (args.baseline) {
      baseline = await startInstance('baseline from database', database, 4906 + OFFSET, {
        snapshots: false,
        dir: join(args.baseline, 'services', SERVICE),
      })
      children.push(baseline.service.child)
      baseline.service.child.kill('SIGTERM')
    }
    fromDatabase = await startInstance('from database', database, 4904 + OFFSET)
    children.push(fromDatabase.service.child)
    // A loads from the database and then writes the snapshot (followed-model.ts).
    const until = Date.now() + 600_000
    while (!(await store.takenAt(subject.model)) && Date.now() < until) await sleep(500)
    fromDatabase.service.child.kill('SIGTERM')
  }
  // Written by the bench's process: the memory it held is given back before the instance starts.
  global.gc?.()
  const fromSnapshot = await startInstance('from snapshot', database, 4905 + OFFSET)
  children.push(fromSnapshot.service.child)
  log(`load average after the loads: ${load()}`)

  const port = 4905 + OFFSET
  const first = await (await fetch(`http://127.0.0.1:${port}${subject.route}?page=1`)).json()
  const cards = first.jobs ?? first.people
  log(
    `feed: ${first.pagination.total} live; a card is ~${Math.round(JSON.stringify(cards).length / cards.length)} bytes of JSON`,
  )
  const filtered = await (
    await fetch(`http://127.0.0.1:${port}${subject.route}?page=1&${subject.filtered}`)
  ).json()
  log(`filtered page (${subject.filtered}): ${filtered.pagination.total} match`)
  const scenarios = [
    ['feed page 1', `${subject.route}?page=1&sort=desc`],
    ['feed page 50', `${subject.route}?page=50&sort=desc`],
    [
      `filtered page (${subject.filtered})`,
      `${subject.route}?page=1&sort=desc&${subject.filtered}`,
    ],
    [`search ("${subject.search}")`, `${subject.route}?search=${subject.search}&limit=10`],
    // Distance (docs/distance.md): a page within 25 miles of a city the data has, and nearest
    // first within 50; then 80 different questions (10 cities, 4 distances, 2 orders), more than
    // the feed keeps answers for, so most are computed afresh.
    ['within 25 mi of Austin, TX', `${subject.route}?page=1&near=Austin%2C%20TX&within=25`],
    [
      'nearest first within 50 mi of Austin, TX',
      `${subject.route}?page=1&near=Austin%2C%20TX&within=50&sort=distance`,
    ],
    [
      'within N mi, 80 different questions',
      `${subject.route}?page=1&near=Austin%2C%20TX&within=25`,
      NEAR_CITIES.flatMap((city) =>
        [5, 10, 25, 50].flatMap((within) =>
          ['desc', 'distance'].map((sort) => ({
            method: 'GET',
            path: `${subject.route}?page=1&near=${encodeURIComponent(city)}&within=${within}&sort=${sort}`,
          })),
        ),
      ),
    ],
  ]
  for (const [name, path, requests] of scenarios) {
    await cannon(`http://127.0.0.1:${port}${path}`, requests) // warm-up, same length
    const result = await cannon(`http://127.0.0.1:${port}${path}`, requests)
    rows.push({
      name,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
    })
    log(`${name}: p99 ${result.latency.p99} ms`)
  }

  // Resident memory again once the four runs are over (a minute and more after the load): the
  // first reading, 5 s after ready, may still hold the load's garbage.
  const rssAfterRuns = rssMb(fromSnapshot.service.child.pid)
  const heapAfterRuns = await heapReport(fromSnapshot.service.child.pid)
  log(
    `from snapshot, after the runs: ${rssAfterRuns.toFixed(0)} MB resident (${residentByKind(fromSnapshot.service.child.pid)})`,
  )
  const perPost = (rss) => (((rss - empty.rss) * 1024 * 1024) / POSTS).toFixed(0)
  console.log(
    `\n${new Date().toISOString()}, ${SERVICE}, ${POSTS.toLocaleString('en')} ${PEOPLE ? 'workers' : 'posts'} (${first.pagination.total.toLocaleString('en')} live), load average ${load()}\n`,
  )
  console.log(
    `| instance | ready (start to /readyz 200) | its CPU until ready | RSS | bytes per ${PEOPLE ? 'worker' : 'post'} over empty |\n|---|---|---|---|---|`,
  )
  const row = (name, run, perPostText) =>
    console.log(
      `| ${name} | ${run.readyS.toFixed(1)} s | ${run.cpuS.toFixed(1)} s | ${run.rss.toFixed(0)} MB | ${perPostText} |`,
    )
  row('empty database', empty, '–')
  if (baseline) row(`${args.baseline} from the database`, baseline, perPost(baseline.rss))
  if (fromDatabase) row('from the database', fromDatabase, perPost(fromDatabase.rss))
  row('from the snapshot', fromSnapshot, perPost(fromSnapshot.rss))
  console.log(
    `| from the snapshot, after the runs below | | | ${rssAfterRuns.toFixed(0)} MB | ${perPost(rssAfterRuns)} |`,
  )
  console.log(`\ninstances' NODE_OPTIONS: ${nodeOptions || '(none)'}${mallocSettings()}`)
  console.log(`empty instance: ${describeHeap(empty.heap)}`)
  console.log(`from the snapshot, 5 s after ready: ${describeHeap(fromSnapshot.heap)}`)
  console.log(`from the snapshot, after the runs: ${describeHeap(heapAfterRuns)}`)
  console.log(
    `\nfrom the snapshot, over empty: ${(((fromSnapshot.rss - empty.rss) * 1024 * 1024) / first.pagination.total).toFixed(0)} bytes per live ${PEOPLE ? 'worker' : 'post'}`,
  )
  if (fromDatabase)
    console.log(
      `\nready from the snapshot ÷ from the database: ${(fromSnapshot.readyS / fromDatabase.readyS).toFixed(3)}`,
    )
  if (baseline)
    console.log(
      `ready from the snapshot ÷ baseline: ${(fromSnapshot.readyS / baseline.readyS).toFixed(3)}; memory per post ÷ baseline: ${((fromSnapshot.rss - empty.rss) / (baseline.rss - empty.rss)).toFixed(2)}`,
    )
  if (snapshotBytes) console.log(`snapshot object: ${(snapshotBytes / 1e6).toFixed(1)} MB gzipped`)
  console.log(
    `\n| direct, ${args.connections} connections | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|`,
  )
  for (const row of rows)
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.errors} |`)
  const page1 = rows.find((row) => row.name === 'feed page 1')
  const page50 = rows.find((row) => row.name === 'feed page 50')
  console.log(`\npage 50 ÷ page 1, p99: ${(page50.p99 / Math.max(1, page1.p99)).toFixed(2)}`)
} finally {
  for (const child of children) child.kill('SIGTERM')
  await sleep(1000)
  await client
    .db(database)
    .dropDatabase()
    .catch(() => {})
  await client
    .db(emptyDatabase)
    .dropDatabase()
    .catch(() => {})
  await client.close()
  rmSync(heapReportFile, { force: true })
}
process.exit(0)
