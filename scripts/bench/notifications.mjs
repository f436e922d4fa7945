#!/usr/bin/env node
// Notifications benchmark, two parts against built processes and the real Kafka
// and FerretDB of infra/local:
//  1. End-to-end latency from POST /api/jobs/requests (through the gateway) to the
//     `notification` event at the post owner's socket (through the gateway's tunnel), at a
//     steady 50 requests per second for 60 s: p50, p95, p99.
//  2. 5,000 concurrent authenticated sockets on one notifications instance, and its resident
//     memory before and after.
// Targets: p95 ≤ 150 ms, p99 ≤ 300 ms, 5,000 sockets under 600 MB.
//
//   bash infra/local/infra.sh up && pnpm turbo run build
//   node scripts/bench/notifications.mjs [--rate 50] [--duration 60] [--sockets 5000] [--keep]
import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { log, startProcess } from './feed-bench-lib.mjs'
import { infraEnv, repoRoot } from './infra-env.mjs'

const fromNotifications = createRequire(join(repoRoot, 'services', 'notifications', 'package.json'))
const { io } = fromNotifications('socket.io-client')
const { Kafka, logLevel } = fromNotifications('kafkajs')
const { MongoClient, ObjectId } = fromNotifications('mongodb')
const { consumerLag } = fromNotifications('@marketplace/service-kit/testing')

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    duration: { type: 'string', default: '60' },
    sockets: { type: 'string', default: '5000' },
    keep: { type: 'boolean', default: false },
  },
})
const RATE = Number(args.rate)
const DURATION_S = Number(args.duration)
const SOCKETS = Number(args.sockets)
const WORKERS = 50

const infra = infraEnv()
const run = `bench_notify_${randomBytes(4).toString('hex')}`
const mongoUrl = (name) => `${infra.MONGO_URL_BASE}/${run}_${name}?${infra.MONGO_URL_OPTIONS}`
const { publicKey, privateKey } = generateKeyPairSync('ed25519')
const b64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
function tokenFor(userId) {
  const now = Math.floor(Date.now() / 1000)
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url({ sub: userId, roles: ['2000'], iss: 'marketplace-auth', aud: 'marketplace', iat: now - 1, exp: now + 3600 })}`
  return `${input}.${sign(null, Buffer.from(input), createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }))).toString('base64url')}`
}
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const rssMb = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024
const event = (type, aggregateId, data) => ({ id: randomBytes(16).toString('hex'), type, version: 1, occurredAt: new Date().toISOString(), actorId: aggregateId, aggregateId, data })

async function announce(users) {
  const kafka = new Kafka({ brokers: infra.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING })
  const producer = kafka.producer()
  await producer.connect()
  await producer.send({
    topic: 'auth.users',
    messages: users.map((u) => ({ key: u.userId, value: JSON.stringify(event('user.registered', u.userId, { userId: u.userId, email: `${u.name}.${u.userId}@bench.test`.toLowerCase(), firstName: u.name, lastName: 'Bench', phoneNumber: '(212) 555-0100', dateOfBirth: '1990-01-01', interest: 'Both', emailPreferences: false })) })),
  })
  await producer.send({
    topic: 'people.users',
    messages: users.filter((u) => u.worker).map((u) => ({ key: u.userId, value: JSON.stringify(event('worker-profile.updated', u.userId, { userId: u.userId, isWorker: true, title: 'Helper', skills: ['Lifting'] })) })),
  })
  await producer.disconnect()
}

/** Each service's database commands so far, by command and collection, read from /metrics. */
async function databaseCommands(ports) {
  const totals = new Map()
  for (const [service, port] of Object.entries(ports)) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    for (const line of text.split('\n')) {
      const match = line.match(/^mongodb_command(s_total|_seconds_total)\{(.*)\} ([\d.e+-]+)$/)
      if (!match) continue
      const labels = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
      const key = `${service}|${labels.command}|${labels.collection}`
      const entry = totals.get(key) ?? { count: 0, seconds: 0 }
      if (match[1] === 's_total') entry.count = Number(match[3])
      else entry.seconds = Number(match[3])
      totals.set(key, entry)
    }
  }
  return totals
}

async function main() {
  const processes = []
  const common = { KAFKA_BROKERS: infra.KAFKA_BROKERS, KAFKA_GROUP_PREFIX: `${run}-`, JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString() }
  const [jobsPort, notificationsPort, gatewayPort] = [4981, 4982, 4983]
  try {
    log('starting jobs, notifications and the gateway (built dist)...')
    const jobs = startProcess('jobs', join(repoRoot, 'services', 'jobs'), { ...common, SERVICE_NAME: 'jobs', MONGO_URL: mongoUrl('jobs') }, jobsPort)
    const notifications = startProcess('notifications', join(repoRoot, 'services', 'notifications'), { ...common, SERVICE_NAME: 'notifications', MONGO_URL: mongoUrl('notifications'), SMTP_HOST: infra.SMTP_HOST, SMTP_PORT: infra.SMTP_PORT,
      // The bench's groups are new and read the broker's whole history first: events older than
      // a minute are skipped (the service's rule, with a shorter window), so they are not
      // turned into notifications and the steady state is reached sooner.
      NOTICE_MAX_AGE_MS: '60000' }, notificationsPort)
    processes.push(jobs.child, notifications.child)
    await Promise.all([jobs.ready(), notifications.ready()])
    const gateway = startProcess('gateway', join(repoRoot, 'services', 'gateway'), { SERVICE_NAME: 'gateway', JOBS_URL: `http://127.0.0.1:${jobsPort}`, NOTIFICATIONS_URL: `http://127.0.0.1:${notificationsPort}`, RATE_LIMIT_MAX: '100000000' }, gatewayPort)
    processes.push(gateway.child)
    await gateway.ready()
    const site = `http://127.0.0.1:${gatewayPort}`

    // ---- part 1: end-to-end latency ----
    const total = RATE * DURATION_S
    // One more post for the warm-up, which is not measured.
    const posts = Math.ceil(total / WORKERS) + 1
    const owner = { userId: new ObjectId().toHexString(), name: 'Owner' }
    const workers = Array.from({ length: WORKERS }, (_, i) => ({ userId: new ObjectId().toHexString(), name: `Worker${i}`, worker: true }))
    log(`announcing ${WORKERS} workers and the owner; creating ${posts} posts...`)
    await announce([owner, ...workers])
    const jobsDb = await new MongoClient(mongoUrl('jobs')).connect()
    const until = Date.now() + 120_000
    // This run's workers: a new consumer group replays every earlier user of the broker too.
    const workerIds = workers.map((w) => w.userId)
    while ((await jobsDb.db().collection('users').countDocuments({ _id: { $in: workerIds }, isWorker: true })) < WORKERS) {
      if (Date.now() > until) throw new Error('workers not known to jobs')
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    await jobsDb.close()
    const ownerToken = tokenFor(owner.userId)
    const postIds = []
    for (let p = 0; p < posts; p += 1) {
      const answer = await fetch(`${site}/api/jobs`, { method: 'POST', headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Bench post ${p}`, where: 'Denver CO' }) })
      if (answer.status !== 201) throw new Error(`post ${p}: ${answer.status}`)
      postIds.push((await answer.json())._id)
    }
    const socket = io(site, { path: '/socket.io', transports: ['websocket'], auth: { token: ownerToken } })
    await new Promise((resolve, reject) => {
      socket.once('connect_error', reject)
      socket.once('authenticated', ({ success }) => (success ? resolve() : reject(new Error('not authenticated'))))
      socket.once('connect', () => socket.emit('authenticate', owner.userId))
    })
    const sentAt = new Map()
    const latencies = []
    socket.on('notification', ({ notification }) => {
      const match = notification.message.match(/^(Worker\d+) Bench sent a request for your post "Bench post (\d+)"/)
      const started = match && sentAt.get(`${match[1]}:${match[2]}`)
      if (started) latencies.push(performance.now() - started)
    })
    // Warm-up, not measured. The bench's consumer groups are new, so they first read the
    // broker's history (every earlier test's events): wait until their lag is zero, then
    // send one request per worker on the last post and wait for all of them at the socket.
    const lagUntil = Date.now() + 900_000
    for (let lag = await consumerLag(`${run}-`); lag > 0; lag = await consumerLag(`${run}-`)) {
      if (Date.now() > lagUntil) throw new Error(`consumer groups still ${lag} events behind`)
      log(`catching up with the broker's history: ${lag} events behind...`)
      await new Promise((resolve) => setTimeout(resolve, 5000))
    }
    log('warming up: one request per worker, not measured...')
    const warmupPost = posts - 1
    for (const worker of workers) {
      sentAt.set(`${worker.name}:${warmupPost}`, performance.now())
      const answer = await fetch(`${site}/api/jobs/requests`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(worker.userId)}`, 'content-type': 'application/json' }, body: JSON.stringify({ postID: postIds[warmupPost] }) })
      if (answer.status !== 201) throw new Error(`warm-up request: ${answer.status}`)
    }
    const warmUntil = Date.now() + 120_000
    while (latencies.length < WORKERS) {
      if (Date.now() > warmUntil) throw new Error('warm-up notifications did not all arrive')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    latencies.length = 0
    const servicePorts = { jobs: jobsPort, notifications: notificationsPort }
    const commandsBefore = await databaseCommands(servicePorts)
    log(`sending ${total} requests at ${RATE}/s for ${DURATION_S} s (each one worker, one post)...`)
    let errors = 0
    const started = performance.now()
    await new Promise((resolve) => {
      let i = 0
      const timer = setInterval(() => {
        if (i >= total) {
          clearInterval(timer)
          return resolve()
        }
        const worker = workers[i % WORKERS]
        const post = Math.floor(i / WORKERS)
        i += 1
        sentAt.set(`${worker.name}:${post}`, performance.now())
        fetch(`${site}/api/jobs/requests`, { method: 'POST', headers: { authorization: `Bearer ${tokenFor(worker.userId)}`, 'content-type': 'application/json' }, body: JSON.stringify({ postID: postIds[post] }) })
          .then(async (answer) => {
            if (answer.status === 201) return
            if (errors === 0) log(`first refusal: ${answer.status} ${await answer.text()}`)
            errors += 1
          })
          .catch(() => (errors += 1))
      }, 1000 / RATE)
    })
    const waitUntil = Date.now() + 60_000
    while (latencies.length < total - errors && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 200))
    const elapsedS = (performance.now() - started) / 1000
    const commandsAfter = await databaseCommands(servicePorts)
    socket.disconnect()
    const sorted = [...latencies].sort((a, b) => a - b)
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p) ?? Number.NaN)

    // ---- part 2: 5,000 sockets on one instance ----
    const pid = notifications.child.pid
    const before = rssMb(pid)
    log(`opening ${SOCKETS} authenticated sockets straight to the notifications instance (RSS before: ${before.toFixed(0)} MB)...`)
    const clients = []
    let opened = 0
    const socketStart = performance.now()
    for (let batch = 0; batch < SOCKETS; batch += 250) {
      await Promise.all(Array.from({ length: Math.min(250, SOCKETS - batch) }, async () => {
        const userId = new ObjectId().toHexString()
        const client = io(`http://127.0.0.1:${notificationsPort}`, { path: '/socket.io', transports: ['websocket'], auth: { token: tokenFor(userId) }, reconnection: false, forceNew: true })
        clients.push(client)
        await new Promise((resolve, reject) => {
          client.once('connect_error', reject)
          client.once('authenticated', ({ success }) => (success ? resolve() : reject(new Error('refused'))))
          client.once('connect', () => client.emit('authenticate', userId))
        })
        opened += 1
      }))
      if ((batch / 250) % 4 === 3) log(`${opened} sockets open, RSS ${rssMb(pid).toFixed(0)} MB`)
    }
    const socketSeconds = (performance.now() - socketStart) / 1000
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const after = rssMb(pid)
    for (const client of clients) client.disconnect()

    console.log(`\n| measure | value |\n|---|---|`)
    console.log(`| requests sent | ${total} at ${RATE}/s (${errors} refused) |`)
    console.log(`| notifications pushed to the owner's socket | ${latencies.length} |`)
    console.log(`| end-to-end latency p50 / p95 / p99 | ${p50.toFixed(0)} / ${p95.toFixed(0)} / ${p99.toFixed(0)} ms |`)
    console.log(`| run length | ${elapsedS.toFixed(0)} s |`)
    console.log(`| authenticated sockets on one instance | ${opened} of ${SOCKETS}, opened in ${socketSeconds.toFixed(1)} s |`)
    console.log(`| instance RSS before / with the sockets | ${before.toFixed(0)} / ${after.toFixed(0)} MB (${(((after - before) * 1024) / Math.max(1, opened)).toFixed(1)} KB per socket) |`)
    console.log(`\nDatabase commands per notification (from each service's /metrics, mongodb_commands_total):\n`)
    console.log('| service | command | collection | per notification | ms each (mean wait) |\n|---|---|---|---|---|')
    let perNotification = 0
    for (const [key, after] of commandsAfter) {
      const before = commandsBefore.get(key) ?? { count: 0, seconds: 0 }
      const count = after.count - before.count
      if (count <= 0) continue
      const [service, command, collection] = key.split('|')
      perNotification += count / Math.max(1, latencies.length)
      console.log(`| ${service} | ${command} | ${collection} | ${(count / Math.max(1, latencies.length)).toFixed(2)} | ${(((after.seconds - before.seconds) * 1000) / count).toFixed(1)} |`)
    }
    console.log(`| all | | | ${perNotification.toFixed(1)} | |`)
    console.log(`\nTarget p95 ≤ 150 ms: ${p95 <= 150 ? 'met' : 'NOT met'}; p99 ≤ 300 ms: ${p99 <= 300 ? 'met' : 'NOT met'}; ${SOCKETS} sockets under 600 MB: ${opened === SOCKETS && after < 600 ? 'met' : 'NOT met'}.`)
  } finally {
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1500))
    if (!args.keep) {
      const client = await new MongoClient(mongoUrl('jobs')).connect()
      for (const name of ['jobs', 'notifications']) await client.db(`${run}_${name}`).dropDatabase()
      await client.close()
    }
  }
}

main().then(() => process.exit(0)).catch((error) => {
  console.error(`[bench] failed: ${error.stack ?? error}`)
  process.exit(1)
})
