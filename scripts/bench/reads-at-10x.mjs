#!/usr/bin/env node
// Reads at ten times the data: every read a signed-in user triggers, measured
// through its service's HTTP route at a small size and at ten times it, in one run, against
// built services started as processes and the real FerretDB of infra/local. Prints p99 at
// both sizes and their ratio per read (target: at most 1.5).
//
// What grows: each collection a read touches is filled with other users' documents, written
// straight into the service's database in the shape the service stores them (what the
// services' own code writes; the per-user lists of a redesigned read are filled the same way,
// so the old and new designs are measured alike). The signed-in user's own data (10 posts,
// 10 requests each way on posts and to people, 30 notifications, 10 favorites of each kind,
// 10 conversations of 40 messages) is the same at both sizes: only the collection grows.
// Others' notifications are spread over size / 10 users, as the issue's example.
//
// The services start once, on the small size; the large size is added while they run, so
// a read model loaded at start (the feeds) is not what is measured.
//
//
//   MARKETPLACE_PORT_OFFSET=20000 bash infra/local/infra.sh up
//   pnpm turbo run build --filter=@marketplace/jobs... --filter=@marketplace/people... \
//     --filter=@marketplace/notifications... --filter=@marketplace/favorites... \
//     --filter=@marketplace/reports... --filter=@marketplace/conversations... --filter=@marketplace/auth...
//   node scripts/bench/reads-at-10x.mjs [--size 1000] [--requests 20] [--connections 1]
//     [--max-seconds 60]
//     [--only notifications,reports] [--keep]
import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { log, seededRandom, startProcess } from './feed-bench-lib.mjs'
import { infraEnv, repoRoot } from './infra-env.mjs'

const fromJobs = createRequire(join(repoRoot, 'services', 'jobs', 'package.json'))
const { MongoClient, ObjectId } = fromJobs('mongodb')
const autocannon = createRequire(join(repoRoot, 'package.json'))('autocannon')
const fromAuth = createRequire(join(repoRoot, 'services', 'auth', 'package.json'))

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '20' },
    'max-seconds': { type: 'string', default: '60' },
    connections: { type: 'string', default: '1' },
    only: { type: 'string', default: '' },
    keep: { type: 'boolean', default: false },
  },
})
const SMALL = Number(args.size)
const LARGE = SMALL * 10
const REQUESTS = Number(args.requests)
const MAX_SECONDS = Number(args['max-seconds'])
const CONNECTIONS = Number(args.connections)
const BATCH = 1000
const PASSWORD = 'Bench-password-1'

const infra = infraEnv()
const run = `reads10x_${randomBytes(3).toString('hex')}`
const mongoUrl = (service) => `${infra.MONGO_URL_BASE}/${run}_${service}?${infra.MONGO_URL_OPTIONS}`
const { publicKey, privateKey } = generateKeyPairSync('ed25519')
const signingKey = createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }))
const b64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url')
function tokenFor(userId, roles = ['2000']) {
  const now = Math.floor(Date.now() / 1000)
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url({ sub: userId, roles, iss: 'marketplace-auth', aud: 'marketplace', iat: now - 1, exp: now + 7200 })}`
  return `${input}.${sign(null, Buffer.from(input), signingKey).toString('base64url')}`
}

const next = seededRandom(19)
const id = () => new ObjectId().toHexString()
const pick = (list) => list[Math.floor(next() * list.length)]
const at = (i) => new Date(Date.UTC(2026, 0, 1) + i * 1000)
const STATUSES = ['pending', 'accepted', 'rejected']

// ---- the signed-in user and their own data (the same at both sizes) ----
const me = { userId: id(), email: `me.${run}@bench.test` }
const admin = id()
const OWN = 10
const myPosts = Array.from({ length: OWN }, () => id())
const myConversations = []

const post = (_id, owner, i) => ({
  _id, userID: owner, title: `Bench post ${i}`, location: 'Denver CO', jobStartEnd: 'Weekends', salary: '20/h',
  paymentType: ['Cash'], contact: '', contactValue: '', infos: 'Moving boxes to the third floor.',
  displayLocation: true, displayContact: true, jobPicture: null, category: 'Uncategorized', categoryExplicit: false,
  isOnline: true, takenDown: false, expirationDate: null, expiresAt: null, searchWords: ['bench', 'post'],
  createdAt: at(i), updatedAt: at(i), outbox: [],
})
const jobRequest = (postId, ownerId, requesterId, i) => ({
  _id: id(), postId, ownerId, requesterId, postTitle: `Bench post ${i}`, status: STATUSES[i % 3],
  createdAt: at(i), updatedAt: at(i), outbox: [],
})
const peopleRequest = (postId, ownerId, workerId, i) => ({
  _id: id(), postId, postTitle: `Bench post ${i}`, ownerId, workerId, status: STATUSES[i % 3],
  createdAt: at(i), updatedAt: at(i), outbox: [],
})
const notification = (userId, i) => ({
  _id: `${id()}:${userId}`, userId, kind: 'post-request', message: `Someone sent a request for your post "Bench post ${i}"`,
  link: '/requests', isRead: i % 3 !== 0, status: i % 3 !== 0 ? 'read' : 'unread', createdAt: at(i), pushedAt: at(i), outbox: [],
})
const favorite = (userId, kind, targetId, targetOwnerId, i) => ({
  _id: `${userId}:${kind}:${targetId}`, userId, kind, targetId, targetOwnerId, createdAt: at(i), updatedAt: at(i), outbox: [],
})
const report = (i) => ({
  _id: id(), reporterId: id(), targetType: 'post', targetId: id(), targetOwnerId: id(), reason: pick(['scam', 'inappropriate', 'other']),
  description: 'Looks like a scam.', status: i % 2 === 0 ? 'open' : 'closed', createdAt: at(i),
  closedAt: i % 2 === 0 ? null : at(i + 1), closedBy: i % 2 === 0 ? null : admin, action: i % 2 === 0 ? null : 'dismiss', outbox: [],
})
function conversation(requesterId, otherId, i, messages) {
  const _id = `jr:${id()}`
  const last = at(i + messages)
  return {
    doc: {
      _id, requestKind: 'post-request', requestId: _id.slice(3), postId: id(), postTitle: `Bench post ${i}`, requesterId, otherId,
      names: { requester: 'Requester Bench', other: 'Owner Bench' }, seq: messages, lastRead: { requester: messages, other: messages - 1 },
      lastMessage: { senderId: requesterId, text: `message ${messages}`, sentAt: last, takenDown: false },
      lastActivityAt: last, closedBy: null, openedAt: at(i), outbox: [],
    },
    buckets: Array.from({ length: Math.ceil(messages / 30) }, (_, b) => ({
      _id: `${_id}:b${b}`, conversationId: _id, bucket: b, outbox: [],
      messages: Object.fromEntries(Array.from({ length: Math.min(30, messages - b * 30) }, (_, k) => {
        const seq = b * 30 + k + 1
        return [`m${seq}`, { seq, senderId: seq % 2 ? requesterId : otherId, text: `message ${seq}`, sentAt: at(i + seq), clientId: null, takenDown: false }]
      })),
    })),
  }
}

/**
 * What each service stores, as functions of a range of other users' documents: `fill(db,
 * from, to)` writes documents from..to-1 of each collection. `own(db)` writes the signed-in
 * user's.
 */
const SERVICES = {
  jobs: {
    port: 4991,
    async own(db) {
      await db.collection('posts').insertMany(myPosts.map((p, i) => post(p, me.userId, i)))
      // 10 requests on my posts from others, 10 of mine on others' posts (whose posts exist).
      const theirPosts = Array.from({ length: OWN }, (_, i) => post(id(), id(), 100 + i))
      await db.collection('posts').insertMany(theirPosts)
      await db.collection('job_requests').insertMany([
        ...myPosts.map((p, i) => jobRequest(p, me.userId, id(), i)),
        ...theirPosts.map((p, i) => jobRequest(p._id, p.userID, me.userId, i)),
      ])
    },
    async fill(db, from, to) {
      const posts = []
      const requests = []
      for (let i = from; i < to; i += 1) {
        const owner = id()
        posts.push(post(id(), owner, i))
        requests.push(jobRequest(posts.at(-1)._id, owner, id(), i))
      }
      await insert(db, 'posts', posts)
      await insert(db, 'job_requests', requests)
    },
  },
  people: {
    port: 4992,
    async own(db) {
      await db.collection('people_requests').insertMany([
        ...Array.from({ length: OWN }, (_, i) => peopleRequest(myPosts[i], me.userId, id(), i)),
        ...Array.from({ length: OWN }, (_, i) => peopleRequest(id(), id(), me.userId, i)),
      ])
    },
    async fill(db, from, to) {
      const requests = []
      for (let i = from; i < to; i += 1) requests.push(peopleRequest(id(), id(), id(), i))
      await insert(db, 'people_requests', requests)
    },
  },
  notifications: {
    port: 4993,
    async own(db) {
      await db.collection('notifications').insertMany(Array.from({ length: 3 * OWN }, (_, i) => notification(me.userId, i)))
    },
    async fill(db, from, to) {
      const others = Array.from({ length: Math.max(1, (to - from) / 10) }, () => id())
      const docs = []
      for (let i = from; i < to; i += 1) docs.push(notification(others[i % others.length], i))
      // Others' notifications in the shape before the buckets: a user's first look puts
      // them in buckets (notifications-repository.ts); here only their number matters.
      await insert(db, 'notifications', docs)
    },
  },
  favorites: {
    port: 4994,
    async own(db) {
      await db.collection('favorites').insertMany([
        ...Array.from({ length: OWN }, (_, i) => favorite(me.userId, 'post', id(), id(), i)),
        ...Array.from({ length: OWN }, (_, i) => favorite(me.userId, 'person', id(), id(), i)),
        // Others who saved my posts: the stats count them.
        ...Array.from({ length: OWN }, (_, i) => favorite(id(), 'post', myPosts[i], me.userId, i)),
      ])
    },
    async fill(db, from, to) {
      const docs = []
      for (let i = from; i < to; i += 1) {
        const kind = i % 2 ? 'post' : 'person'
        docs.push(favorite(id(), kind, id(), id(), i))
      }
      await insert(db, 'favorites', docs)
    },
  },
  reports: {
    port: 4995,
    async own() {},
    // Half the reports are closed, the other half open; the queues are indexed queries on
    // them (services/reports/src/reports/reports-repository.ts).
    async fill(db, from, to) {
      const docs = []
      for (let i = from; i < to; i += 1) docs.push(report(i))
      await insert(db, 'reports', docs)
    },
  },
  conversations: {
    port: 4996,
    async own(db) {
      const inbox = { _id: me.userId, unreadTotal: 0, conversations: {} }
      for (let i = 0; i < OWN; i += 1) {
        const { doc, buckets } = conversation(me.userId, id(), i, 40)
        myConversations.push(doc._id)
        await db.collection('conversations').insertOne(doc)
        await db.collection('message_buckets').insertMany(buckets)
        inbox.conversations[doc._id] = { unread: 1, lastActivityAt: doc.lastActivityAt }
        inbox.unreadTotal += 1
      }
      // Inboxes are kept in the conversations' collection (docs/conversations.md).
      await db.collection('conversations').insertOne(inbox)
    },
    async fill(db, from, to) {
      // One conversation of 40 messages per 10 documents of the size: about as many messages
      // as the other collections hold documents.
      const conversations = []
      const buckets = []
      const inboxes = []
      for (let i = from; i < to; i += 10) {
        const requester = id()
        const { doc, buckets: its } = conversation(requester, id(), i, 40)
        conversations.push(doc)
        buckets.push(...its)
        inboxes.push({ _id: requester, unreadTotal: 0, conversations: { [doc._id]: { unread: 0, lastActivityAt: doc.lastActivityAt } } })
      }
      await insert(db, 'conversations', conversations)
      await insert(db, 'message_buckets', buckets)
      await insert(db, 'conversations', inboxes)
    },
  },
  auth: {
    port: 4997,
    async own(db) {
      const { hash } = fromAuth('@node-rs/argon2')
      const { ARGON2_OPTIONS } = fromAuth('./dist/accounts/password-hasher.js')
      // One hash for every account: login verifies only the one it finds.
      passwordHash = await hash(PASSWORD, ARGON2_OPTIONS)
    },
    // Written again after each fill, so it is the newest account: a lookup that reads the
    // collection in natural order finds it last, not first.
    async last(db) {
      await db.collection('credentials').deleteOne({ _id: me.userId })
      await db.collection('credentials').insertOne(credential(me.userId, me.email, 0))
    },
    async fill(db, from, to) {
      const docs = []
      for (let i = from; i < to; i += 1) {
        const userId = id()
        docs.push(credential(userId, `user${i}.${userId}@bench.test`, i))
      }
      await insert(db, 'credentials', docs)
    },
  },
}
let passwordHash = ''
const credential = (userId, email, i) => ({
  _id: userId, email, passwordHash, firstName: 'Bench', lastName: 'User', phoneNumber: '(212) 555-0100', isWorker: false,
  roles: ['2000'], verified: true,
  createdAt: at(i), updatedAt: at(i), outbox: [],
})

/** The reads, each through its service's route as the signed-in user (or an admin). */
const READS = [
  ['login', 'auth', { method: 'POST', path: '/api/auth/direct-login', body: () => JSON.stringify({ email: me.email, password: PASSWORD }), anonymous: true }],
  ['my posts', 'jobs', { path: '/api/jobs/my-jobs' }],
  ['requests received on my posts', 'jobs', { path: () => `/api/jobs/user/${me.userId}/received-requests` }],
  ['requests sent on posts', 'jobs', { path: () => `/api/jobs/user/${me.userId}/sent-requests` }],
  ['jobs stats', 'jobs', { path: () => `/api/jobs/stats/${me.userId}` }],
  ['requests sent to people', 'people', { path: '/api/people/requests/sent' }],
  ['requests received from people', 'people', { path: '/api/people/requests/received' }],
  ['people stats', 'people', { path: () => `/api/people/stats/${me.userId}` }],
  ['notifications page 1', 'notifications', { path: '/api/notifications?page=1&limit=10' }],
  ['notifications unread count', 'notifications', { path: '/api/notifications/unread-count' }],
  ['favorite posts', 'favorites', { path: () => `/api/favorites/posts/${me.userId}` }],
  ['favorite people', 'favorites', { path: () => `/api/favorites/people/${me.userId}` }],
  ['favorites stats', 'favorites', { path: () => `/api/favorites/stats/${me.userId}` }],
  ['moderation queue', 'reports', { path: '/api/reports?status=open&page=1', admin: true }],
  ['closed moderation queue', 'reports', { path: '/api/reports?status=closed&page=1', admin: true }],
  ['conversation list', 'conversations', { path: '/api/conversations' }],
  ['messages of a conversation', 'conversations', { path: () => `/api/conversations/${myConversations[0]}/messages` }],
]

async function insert(db, collection, docs) {
  for (let i = 0; i < docs.length; i += BATCH) await db.collection(collection).insertMany(docs.slice(i, i + BATCH), { ordered: false })
}

/**
 * A fixed number of requests rather than a duration: a read that grows with its collection
 * takes seconds at the large size, and a duration would end before its first answer. The
 * timeout is long for the same reason: a slow answer is measured, not dropped.
 */
function measure(url, { method, headers, body }, amount) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, method, headers, body, connections: CONNECTIONS, amount, timeout: MAX_SECONDS, pipelining: 1 }, (error, result) => {
      clearTimeout(cap)
      return error ? reject(error) : resolve(result)
    })
    // A read that grows with its collection can take minutes a request on a busy machine:
    // after --max-seconds the requests answered so far are the sample.
    const cap = setTimeout(() => instance.stop(), MAX_SECONDS * 1000)
  })
}

async function measureAll(size, services) {
  const rows = []
  for (const [name, service, read] of READS) {
    if (!services.includes(service)) continue
    const path = typeof read.path === 'function' ? read.path() : read.path
    const url = `http://127.0.0.1:${SERVICES[service].port}${path}`
    const headers = { 'content-type': 'application/json' }
    if (!read.anonymous) headers.authorization = `Bearer ${tokenFor(read.admin ? admin : me.userId, read.admin ? ['2001'] : ['2000'])}`
    const options = { method: read.method ?? 'GET', headers, body: read.body?.() }
    // One answer checked and two more as a warm-up (not measured). A first answer slower
    // than --max-seconds is the read's figure: over the cap.
    const check = await fetch(url, { ...options, signal: AbortSignal.timeout(MAX_SECONDS * 1000) }).catch((error) => {
      if (error.name === 'TimeoutError') return null
      throw error
    })
    if (check === null) {
      rows.push({ name, size, p50: MAX_SECONDS * 1000, p99: MAX_SECONDS * 1000, answered: 0, capped: true, errors: 0 })
      log(`${name} at ${size}: no answer within ${MAX_SECONDS} s`)
      continue
    }
    if (!check.ok) throw new Error(`${name}: ${check.status} ${await check.text()}`)
    await measure(url, options, 2)
    const result = await measure(url, options, REQUESTS)
    const errors = result.errors + result.non2xx
    const answered = result.requests.total
    // None answered within --max-seconds: the cap is the lower bound of its p99.
    const p99 = answered > 0 ? result.latency.p99 : MAX_SECONDS * 1000
    rows.push({ name, size, p50: answered > 0 ? result.latency.p50 : p99, p99, answered, capped: answered === 0, errors })
    log(`${name} at ${size}: ${answered} answered, p50 ${result.latency.p50} ms, p99 ${answered > 0 ? p99 : `over ${p99}`} ms${errors ? `, ${errors} errors` : ''}`)
  }
  return rows
}

async function fillAll(clients, services, from, to) {
  for (const service of services) {
    const started = Date.now()
    for (let done = from; done < to; done += 10_000) await SERVICES[service].fill(clients[service].db(), done, Math.min(to, done + 10_000))
    await SERVICES[service].last?.(clients[service].db())
    log(`${service}: others' documents ${from}..${to} written (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  }
}

async function main() {
  const services = args.only ? args.only.split(',') : Object.keys(SERVICES)
  const clients = {}
  const processes = []
  log(`run ${run}: sizes ${SMALL} and ${LARGE} documents per collection; ${REQUESTS} requests per read and size on ${CONNECTIONS} connection(s); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  try {
    for (const service of services) {
      clients[service] = await new MongoClient(mongoUrl(service)).connect()
      await SERVICES[service].own(clients[service].db())
    }
    await fillAll(clients, services, 0, SMALL)
    const common = {
      KAFKA_BROKERS: infra.KAFKA_BROKERS,
      KAFKA_GROUP_PREFIX: `${run}-`,
      // The databases are the bench's own: its new groups skip the broker's history.
      KAFKA_NEW_GROUPS_SINCE: String(Date.now()),
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      SMTP_HOST: infra.SMTP_HOST,
      SMTP_PORT: infra.SMTP_PORT,
      S3_ENDPOINT: infra.S3_ENDPOINT,
      // auth: one client address sends every login; the budgets are not what is measured.
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_MULTIPLIER: '100000',
    }
    for (const service of services) {
      log(`starting ${service} (built dist)...`)
      const started = startProcess(service, join(repoRoot, 'services', service), { ...common, SERVICE_NAME: service, MONGO_URL: mongoUrl(service) }, SERVICES[service].port)
      processes.push(started.child)
      await started.ready()
      await SERVICES[service].started?.(clients[service].db())
    }
    log(`measuring every read at ${SMALL}...`)
    const small = await measureAll(SMALL, services)
    log(`growing every collection to ${LARGE}...`)
    await fillAll(clients, services, SMALL, LARGE)
    log(`measuring every read at ${LARGE}...`)
    const large = await measureAll(LARGE, services)

    console.log(`\nLoad average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)
    console.log(`| read | p99 at ${SMALL} (ms) | p99 at ${LARGE} (ms) | ratio | p50 small / large (ms) | requests answered small / large |`)
    console.log('|---|---|---|---|---|---|')
    let over = 0
    for (const row of small) {
      const big = large.find((r) => r.name === row.name)
      const ratio = big.p99 / Math.max(1, row.p99)
      if (ratio > 1.5) over += 1
      const shown = (r) => (r.capped ? `over ${r.p99}` : r.p99)
      console.log(`| ${row.name} | ${shown(row)} | ${shown(big)} | ${big.capped ? 'over ' : ''}${ratio.toFixed(2)}${ratio > 1.5 ? ' **over 1.5**' : ''} | ${row.p50} / ${big.p50} | ${row.answered} / ${big.answered} |`)
    }
    console.log(`\n${over === 0 ? 'Every read within 1.5.' : `${over} of ${small.length} reads over 1.5.`}`)
  } finally {
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1500))
    for (const [service, client] of Object.entries(clients)) {
      if (!args.keep) await client.db().dropDatabase()
      await client.close()
    }
  }
}

main().then(() => process.exit(0)).catch((error) => {
  console.error(`[bench] failed: ${error.stack ?? error}`)
  process.exit(1)
})
