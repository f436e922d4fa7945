#!/usr/bin/env node
// Saved search alerts benchmark (docs/saved-searches.md), against the built notifications
// service as a process and the real Kafka and FerretDB of infra/local:
//  - `--searches` saved searches (100,000) of `--users` users in the service's database
//    before it starts (it loads them into its index at start: the load time is reported);
//  - new posts published on jobs.posts as post.created at `--rate` per second (50) for
//    `--duration` seconds, each matched by exactly one "planted" search (a word only that
//    post and that search carry), every other search a real candidate or not by its
//    category, words and place, but never a match;
//  - first, in this process: the service's index (its built module) holding the same
//    searches, and the time one post's match takes (p50, p95, p99 over the run's posts);
//  - the time from a post's event to its notification stored (the notification's createdAt,
//    read from the database after the run, so the measuring adds no load): p50, p95, p99,
//    and notices missing or extra.
//  - the floor, in the same seconds: with every `--floor-every` (5th) post a job-request.created,
//    one notice stored by the service's general group with no matching: the time from event
//    to notice stored where the machine, Kafka and the database are the limit, under the
//    same load as the alerts (the machine is shared: a floor measured apart was not);
//  - the index's load read as it was (the driver's default batches) and as the service reads
//    it now (LOAD_BATCH_SIZE), both timed here before the service starts, then the service's
//    own time to ready; its RSS when ready and after the run, and its CPU time per post.
// The jobs service's own write and outbox relay are not in the figure (the post event is
// published here at once): they are the same for every consumer of post events.
// The service listens on 4991 plus MARKETPLACE_PORT_OFFSET. Its exit is logged with its code
// or signal: one the bench did not cause ends the run at once with that reason.
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/notifications...
//   node scripts/bench/saved-search-alerts.mjs [--searches 100000] [--users 10000] [--rate 50] [--duration 60] [--floor-every 5] [--keep]
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { log, seededRandom, startProcess } from './feed-bench-lib.mjs'
import { infraEnv, repoRoot } from './infra-env.mjs'

const fromNotifications = createRequire(join(repoRoot, 'services', 'notifications', 'package.json'))
const { Kafka, logLevel } = fromNotifications('kafkajs')
const { MongoClient, ObjectId } = fromNotifications('mongodb')
const { consumerLag } = fromNotifications('@marketplace/service-kit/testing')
const { savedSearchCriteria, savedSearchQueryOf } = fromNotifications(
  '@marketplace/contracts/marketplace',
)
const { createSavedSearchIndex } = fromNotifications('./dist/saved-searches/saved-search-index.js')
const { createPlaces } = fromNotifications('./dist/saved-searches/places.js')
const { LOAD_BATCH_SIZE } = fromNotifications('./dist/saved-searches/saved-searches-repository.js')

const { values: args } = parseArgs({
  options: {
    searches: { type: 'string', default: '100000' },
    users: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '50' },
    duration: { type: 'string', default: '60' },
    'floor-every': { type: 'string', default: '5' },
    'index-only': { type: 'boolean', default: false },
    'skip-read-compare': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
})
const SEARCHES = Number(args.searches)
const USERS = Number(args.users)
const RATE = Number(args.rate)
const DURATION_S = Number(args.duration)
const POSTS = RATE * DURATION_S
const FLOOR_EVERY = Number(args['floor-every'])
const FLOOR_EVENTS = Math.ceil(POSTS / FLOOR_EVERY)

const infra = infraEnv()
const run = `bench_alerts_${randomBytes(4).toString('hex')}`
const mongoUrl = `${infra.MONGO_URL_BASE}/${run}_notifications?${infra.MONGO_URL_OPTIONS}`
const random = seededRandom(39)
const pick = (list) => list[Math.floor(random() * list.length)]
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

const CATEGORIES = [
  'Moving',
  'Cleaning',
  'Gardening',
  'Painting',
  'Tutoring',
  'Pet care',
  'Repairs',
  'Delivery',
  'Cooking',
  'Assembly',
  'Child care',
  'Tech help',
]
const WORDS = [
  'piano',
  'fence',
  'garage',
  'lawn',
  'boxes',
  'couch',
  'deck',
  'window',
  'garden',
  'roof',
  'math',
  'dog',
  'cat',
  'shelf',
  'desk',
  'bike',
  'car',
  'kitchen',
  'yard',
  'paint',
  'move',
  'clean',
  'haul',
  'fix',
  'walk',
  'tutor',
  'cook',
  'assemble',
  'wash',
  'trim',
]
const PLACES = [
  'Austin, TX',
  'Denver, CO',
  'Seattle, WA',
  'Boston, MA',
  'Chicago, IL',
  'Miami, FL',
  'Portland, OR',
  'Phoenix, AZ',
  'Atlanta, GA',
  'Nashville, TN',
  'Round Rock, TX',
  'Boulder, CO',
  'Tacoma, WA',
  'Cambridge, MA',
  'Evanston, IL',
]
const PAYMENTS = ['Cash', 'Check', 'Venmo', 'Zelle']
/** A word nobody else has: the planted search's and its post's, spread over the prefixes. */
const uniqueWord = () => `q${randomBytes(5).toString('hex')}`

/**
 * One background search, a mix of what people save: a category and words (40%), words only
 * (20%), a place and a distance with a category (25%), a category with payment (15%). Each
 * also needs a word no post carries, a category no post has, or a place far from the posts',
 * so none is told (the planted searches alone are), yet many are candidates the index must
 * check: their category, the first letters of their words or their place's cells are the posts'.
 */
function backgroundQuery() {
  const roll = random()
  const params = new URLSearchParams({ feed: 'job' })
  if (roll < 0.4) {
    params.set('category', pick(CATEGORIES))
    params.set('search', `${pick(WORDS)} ${uniqueWord()}`)
  } else if (roll < 0.6) {
    params.set('search', `${pick(WORDS)} ${pick(WORDS)} ${uniqueWord()}`)
  } else if (roll < 0.85) {
    // Half with a category the posts never have, half candidates by place that pay otherwise.
    if (random() < 0.5) params.set('category', pick(CATEGORIES))
    else params.set('payment', 'Bitcoin')
    params.set('near', pick(PLACES))
    params.set('within', String(pick([5, 10, 25, 50])))
  } else {
    params.set('category', pick(CATEGORIES))
    params.set('payment', pick(PAYMENTS))
    params.set('location', 'Nowhere Qq')
  }
  return params.toString()
}

const owner = new ObjectId().toHexString()
/** The owners of the floor's posts, one notice each. */
const floorOwners = Array.from({ length: FLOOR_EVENTS }, () => new ObjectId().toHexString())
const plantedWords = Array.from({ length: POSTS + 10 }, () => uniqueWord())

/** Post `i`'s post.created, carrying its planted word, as jobs publishes it. */
function postEvent(i) {
  const postId = new ObjectId().toHexString()
  const at = new Date().toISOString()
  return {
    postId,
    message: {
      key: postId,
      value: JSON.stringify({
        id: randomBytes(16).toString('hex'),
        type: 'post.created',
        version: 1,
        occurredAt: at,
        actorId: owner,
        aggregateId: postId,
        // "Errands", a category no background search has: those without a category are
        // the candidates by category (then by words, place and filters).
        data: {
          postId,
          ownerId: owner,
          title: `${pick(WORDS)} ${pick(WORDS)} ${plantedWords[i]}`,
          location: pick(PLACES),
          jobStartEnd: 'Soon',
          salary: '50',
          paymentType: [pick(PAYMENTS)],
          contact: null,
          infos: `${pick(WORDS)} and ${pick(WORDS)}`,
          displayLocation: true,
          displayContact: false,
          jobPicture: null,
          category: 'Errands',
          isOnline: true,
          takenDown: false,
          expirationDate: null,
          createdAt: at,
          updatedAt: at,
        },
      }),
    },
  }
}

/** job-request.created for a post of `ownerId`'s: one notice for the owner, no matching. */
function requestEvent(ownerId) {
  const requestId = new ObjectId().toHexString()
  return {
    key: requestId,
    value: JSON.stringify({
      id: randomBytes(16).toString('hex'),
      type: 'job-request.created',
      version: 1,
      occurredAt: new Date().toISOString(),
      actorId: owner,
      aggregateId: requestId,
      data: {
        requestId,
        postId: new ObjectId().toHexString(),
        postTitle: 'Move a piano',
        requesterName: 'Bench Requester',
        status: 'pending',
        ownerId,
        requesterId: owner,
      },
    }),
  }
}

/** Publishes `count` messages made by `make(i)` on `topic` at RATE per second. */
function publishAtRate(producer, topic, count, make) {
  let sent = 0
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (sent >= count) {
        clearInterval(timer)
        return resolve()
      }
      const message = make(sent)
      sent += 1
      producer
        .send({ topic, messages: [message] })
        .catch((error) => log(`send failed: ${error.message}`))
    }, 1000 / RATE)
  })
}

/**
 * Waits until `count()` reaches `target`, or `ms` pass with no progress (the backlog of a
 * rate the machine cannot hold still drains; a stuck service does not); answers the count.
 */
async function waitForCount(count, target, ms) {
  let seen = 0
  let progressAt = Date.now()
  while (Date.now() - progressAt < ms) {
    const now = await count()
    if (now > seen) progressAt = Date.now()
    seen = now
    if (seen >= target) break
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  return seen
}

/** User and system CPU time (ms) of a process so far, from /proc (USER_HZ 100). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** This worktree's FerretDB (infra/local's pid file), whose CPU per post is reported too. */
function databasePid() {
  try {
    return readFileSync(join(repoRoot, '.data', 'pids', 'mongo.pid'), 'utf8').trim()
  } catch {
    return null
  }
}

const rssMbOf = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024

/** Reads every search with the index's projection, in `batchSize` batches; answers seconds. */
async function timedRead(searches, batchSize) {
  const started = performance.now()
  let count = 0
  const options = { projection: { userId: 1, criteria: 1, paused: 1, updatedAt: 1 } }
  for await (const _ of searches.find({}, batchSize ? { ...options, batchSize } : options))
    count += 1
  if (count !== SEARCHES) throw new Error(`read ${count} of ${SEARCHES} searches`)
  return (performance.now() - started) / 1000
}

/** The searches as documents, and how many each user has. */
function makeSearches(plantedWords) {
  const at = new Date()
  const users = Array.from({ length: USERS }, () => new ObjectId().toHexString())
  const documents = []
  const counts = new Map()
  const add = (userId, name, query) => {
    const criteria = savedSearchCriteria(query)
    documents.push({
      _id: new ObjectId().toHexString(),
      userId,
      name,
      query: savedSearchQueryOf(criteria),
      criteria,
      paused: random() < 0.05,
      email: 'off',
      createdAt: at,
      updatedAt: at,
    })
    counts.set(userId, (counts.get(userId) ?? 0) + 1)
  }
  // The planted searches first, never paused: one per post.
  for (const [i, word] of plantedWords.entries()) {
    add(users[i % USERS], `Planted ${i}`, `feed=job&search=${word}`)
    documents.at(-1).paused = false
  }
  for (let i = plantedWords.length; i < SEARCHES; i += 1)
    add(users[i % USERS], `Search ${i}`, backgroundQuery())
  return { documents, counts, users }
}

/**
 * The users as the service knows them once auth announced them (user.registered): a
 * recipient marked bucketed. Without it every notice was some user's first, and the service
 * first puts an unknown user's older notices into buckets, a `find({userId})` over all the
 * notifications: an index read on MongoDB, but a scan growing with every notice on the local
 * FerretDB (2.5 notices/s after a thousand, in the run that found it), which the bench
 * measured instead of the alerts.
 */
async function storeRecipients(db, userIds) {
  const at = new Date()
  const recipients = userIds.map((userId, i) => ({
    _id: userId,
    email: `bench-${userId}@example.test`,
    firstName: `User${i}`,
    notificationsBucketed: true,
    updatedAt: at,
  }))
  for (let i = 0; i < recipients.length; i += 5000)
    await db.collection('recipients').insertMany(recipients.slice(i, i + 5000), { ordered: false })
}

async function storeSearches(db, { documents, counts }) {
  const searches = db.collection('saved_searches')
  for (let i = 0; i < documents.length; i += 5000)
    await searches.insertMany(documents.slice(i, i + 5000), { ordered: false })
  await db.collection('saved_search_owners').insertMany(
    [...counts].map(([userId, count]) => ({ _id: userId, count })),
    { ordered: false },
  )
}

/**
 * The service's index (its built module) holding the searches, and one post's match time
 * over the run's posts (p50, p95, p99 ms); checks each post matches exactly its planted one.
 */
function timeTheIndex(searches) {
  const index = createSavedSearchIndex({ places: createPlaces() })
  const indexStart = performance.now()
  for (const search of searches) index.put(search)
  const indexLoadS = (performance.now() - indexStart) / 1000
  const matchTimes = []
  let matchedPlanted = 0
  for (let i = 0; i < POSTS; i += 1) {
    const { data } = JSON.parse(postEvent(i).message.value)
    const t0 = performance.now()
    const matched = index.match(data)
    matchTimes.push(performance.now() - t0)
    if (matched.length === 1 && matched[0].criteria.words.includes(plantedWords[i]))
      matchedPlanted += 1
  }
  matchTimes.sort((a, b) => a - b)
  const [m50, m95, m99] = [50, 95, 99].map((p) => percentile(matchTimes, p))
  log(
    `index: ${index.size()} searches put in ${indexLoadS.toFixed(1)} s; one post's match p50 / p95 / p99 ${m50.toFixed(3)} / ${m95.toFixed(3)} / ${m99.toFixed(3)} ms; ${matchedPlanted} of ${POSTS} posts matched exactly their planted search`,
  )
  return [m50, m95, m99]
}

async function main() {
  const generated = makeSearches(plantedWords)
  const planted = generated.documents.slice(0, plantedWords.length)
  // ---- the index alone, in this process (with --index-only, nothing else: node --cpu-prof) ----
  const [m50, m95, m99] = timeTheIndex(generated.documents)
  if (args['index-only']) return
  const processes = []
  /** Set once the bench stops the service: an exit before that is the service's own. */
  let stopping = false
  const client = await new MongoClient(mongoUrl).connect()
  const db = client.db()
  try {
    log(
      `storing ${SEARCHES} saved searches of ${USERS} users (${plantedWords.length} planted, one per post)...`,
    )
    const seedStart = performance.now()
    await storeSearches(db, generated)
    await storeRecipients(db, [...generated.users, ...floorOwners])
    log(`stored in ${((performance.now() - seedStart) / 1000).toFixed(0)} s`)
    // The load's read as it was (the driver's default batches) and as the service reads now.
    const searchesOf = db.collection('saved_searches')
    const compare = !args['skip-read-compare']
    const readBeforeS = compare ? await timedRead(searchesOf, undefined) : Number.NaN
    const readNowS = compare ? await timedRead(searchesOf, LOAD_BATCH_SIZE) : Number.NaN
    log(
      `reading the ${SEARCHES} searches for the index: ${readBeforeS.toFixed(1)} s in the driver's default batches (before), ${readNowS.toFixed(1)} s in batches of ${LOAD_BATCH_SIZE} (now)`,
    )
    log('starting notifications (built dist)...')
    // Ports of their own (beside the notifications bench's 4981-4983), moved by the offset.
    const port = 4991 + Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0)
    const startedAt = performance.now()
    const notifications = startProcess(
      'notifications',
      join(repoRoot, 'services', 'notifications'),
      {
        SERVICE_NAME: 'notifications',
        MONGO_URL: mongoUrl,
        KAFKA_BROKERS: infra.KAFKA_BROKERS,
        KAFKA_GROUP_PREFIX: `${run}-`,
        SMTP_HOST: infra.SMTP_HOST,
        SMTP_PORT: infra.SMTP_PORT,
        JWT_PUBLIC_KEY: generateKeyPairSync('ed25519')
          .publicKey.export({ type: 'spki', format: 'pem' })
          .toString(),
        // Past this a post is old news and tells nobody: long enough that a backlog drains
        // into the figure rather than out of it (production keeps a day).
        NOTICE_MAX_AGE_MS: String(15 * 60_000),
        // The run's groups are new: they start now rather than replay the broker's history
        // (earlier runs' requests, each a notice for a user this database never saw).
        KAFKA_NEW_GROUPS_SINCE: String(Date.now()),
        // Every search here has its e-mail off, so the daily digest sweep has nothing to mail;
        // its query (digestDueAt <= now) is an index read on MongoDB but reads all 100,000
        // searches on the local FerretDB (about 25 s), which would measure FerretDB rather
        // than the alerts. Not during the run, then (docs/saved-searches.md).
        DIGEST_SWEEP_MS: String(30 * 60_000),
      },
      port,
      {
        logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
        stdout: process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore',
      },
    )
    processes.push(notifications.child)
    const exited = new Promise((_, reject) =>
      notifications.child.on('exit', (code, signal) => {
        log(
          `notifications exited (code ${code}, signal ${signal})${stopping ? ', stopped by the bench' : ''}`,
        )
        if (!stopping)
          reject(new Error(`notifications exited on its own (code ${code}, signal ${signal})`))
      }),
    )
    exited.catch(() => undefined)
    /** `work`, or the service's own exit first, whichever comes first. */
    const whileUp = (work) => Promise.race([work, exited])
    await whileUp(notifications.ready())
    const pid = notifications.child.pid
    const loadSeconds = (performance.now() - startedAt) / 1000
    const rssMb = rssMbOf(pid)
    log(`ready in ${loadSeconds.toFixed(1)} s (index loaded), RSS ${rssMb.toFixed(0)} MB`)
    for (let lag = await consumerLag(`${run}-`); lag > 0; lag = await consumerLag(`${run}-`)) {
      log(`catching up with the broker's history: ${lag} events behind...`)
      await whileUp(new Promise((resolve) => setTimeout(resolve, 5000)))
    }

    const kafka = new Kafka({ brokers: infra.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING })
    const producer = kafka.producer()
    await producer.connect()
    const sentAt = new Map()
    // Warm-up: the last 10 planted posts, not measured.
    for (let i = POSTS; i < POSTS + 10; i += 1)
      await producer.send({ topic: 'jobs.posts', messages: [postEvent(i).message] })
    const notificationsOf = db.collection('notifications')
    const alertsStored = () => notificationsOf.countDocuments({ kind: 'saved-search' })
    if ((await whileUp(waitForCount(alertsStored, 10, 120_000))) < 10)
      throw new Error('warm-up notices not stored within 2 minutes')
    log(
      `publishing ${POSTS} new posts at ${RATE}/s for ${DURATION_S} s, and with every ${FLOOR_EVERY}th a request (the floor)...`,
    )
    const requestSentAt = new Map()
    // Request notices of earlier runs' events (the general group reads the broker's history).
    const requestNotices = () => notificationsOf.countDocuments({ kind: 'post-request' })
    const earlierNotices = await requestNotices()
    const started = Date.now()
    const cpuBefore = cpuMsOf(pid)
    const dbPid = databasePid()
    const dbCpuBefore = dbPid ? cpuMsOf(dbPid) : 0
    await whileUp(
      publishAtRate(producer, 'jobs.posts', POSTS, (i) => {
        if (i % FLOOR_EVERY === 0) {
          const ownerId = floorOwners[i / FLOOR_EVERY]
          requestSentAt.set(ownerId, Date.now())
          producer
            .send({ topic: 'jobs.requests', messages: [requestEvent(ownerId)] })
            .catch((error) => log(`send failed: ${error.message}`))
        }
        const { postId, message } = postEvent(i)
        sentAt.set(postId, Date.now())
        return message
      }),
    )
    // Wait until every planted post was told (or 30 s pass with none more stored).
    await whileUp(waitForCount(alertsStored, POSTS + 10, 30_000))
    await whileUp(waitForCount(requestNotices, earlierNotices + FLOOR_EVENTS, 30_000))
    const elapsedS = (Date.now() - started) / 1000
    const noticesStored = POSTS + FLOOR_EVENTS
    const cpuPerNotice = (cpuMsOf(pid) - cpuBefore) / noticesStored
    const dbCpuPerNotice = dbPid ? (cpuMsOf(dbPid) - dbCpuBefore) / noticesStored : Number.NaN
    const rssAfterMb = rssMbOf(pid)
    const floor = []
    for await (const notice of notificationsOf.find(
      { kind: 'post-request' },
      { projection: { userId: 1, createdAt: 1 } },
    )) {
      const at = requestSentAt.get(notice.userId)
      if (at !== undefined) floor.push(notice.createdAt.getTime() - at)
    }
    floor.sort((a, b) => a - b)
    const [f50, f95, f99] = [50, 95, 99].map((p) => percentile(floor, p) ?? Number.NaN)
    await producer.disconnect()
    const latencies = []
    let extra = 0
    const plantedIds = new Set(planted.map((search) => search._id))
    for await (const notice of notificationsOf.find(
      { kind: 'saved-search' },
      { projection: { _id: 1, createdAt: 1 } },
    )) {
      const [, searchId, rest] = notice._id.split('.')
      const postId = rest.split(':')[0]
      if (!plantedIds.has(searchId)) extra += 1
      const at = sentAt.get(postId)
      if (at !== undefined) latencies.push(notice.createdAt.getTime() - at)
    }
    const sorted = latencies.sort((a, b) => a - b)
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p) ?? Number.NaN)
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    console.log(`\n| measure | value |\n|---|---|`)
    console.log(
      `| saved searches | ${SEARCHES} of ${USERS} users (index loaded at start: ready in ${loadSeconds.toFixed(1)} s, RSS ${rssMb.toFixed(0)} MB) |`,
    )
    console.log(
      `| the index's read of them (this process) | before ${readBeforeS.toFixed(1)} s (default batches), now ${readNowS.toFixed(1)} s (batches of ${LOAD_BATCH_SIZE}) |`,
    )
    console.log(
      `| one post's match in process p50 / p95 / p99 | ${m50.toFixed(2)} / ${m95.toFixed(2)} / ${m99.toFixed(2)} ms |`,
    )
    console.log(`| posts published | ${POSTS} at ${RATE}/s |`)
    console.log(
      `| notices stored for them | ${latencies.length} (missing ${POSTS - latencies.length}, extra ${extra}) |`,
    )
    console.log(`| post created to notice stored p50 / p95 / p99 | ${p50} / ${p95} / ${p99} ms |`)
    console.log(
      `| floor: request event to notice stored p50 / p95 / p99 (${floor.length} of ${FLOOR_EVENTS}) | ${f50} / ${f95} / ${f99} ms |`,
    )
    console.log(`| alerts p95 / floor p95 | ${(p95 / f95).toFixed(2)} |`)
    console.log(
      `| service CPU per notice stored (posts' and requests', all its groups, the run and its drain) | ${cpuPerNotice.toFixed(1)} ms |`,
    )
    console.log(
      `| the database's CPU per notice (FerretDB, the same span; the bench's polling included) | ${dbCpuPerNotice.toFixed(1)} ms |`,
    )
    console.log(`| service RSS after the run | ${rssAfterMb.toFixed(0)} MB |`)
    console.log(`| run length | ${elapsedS.toFixed(0)} s |`)
    console.log(`| load average (1, 5, 15 min) at the end | ${load} |`)
  } finally {
    stopping = true
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1500))
    if (!args.keep) await db.dropDatabase()
    await client.close()
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(`[bench] failed: ${error.stack ?? error}`)
    process.exit(1)
  })
