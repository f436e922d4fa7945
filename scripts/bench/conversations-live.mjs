#!/usr/bin/env node
// Conversations live benchmark, against built processes and the real Kafka and
// FerretDB of infra/local: conversations, notifications and the gateway, each its own process.
// Pairs of users each get a conversation (opened by job-request.created, published here as
// jobs would), every user holds one socket through the gateway's tunnel, and messages are
// sent with POST /api/conversations/:id/messages through the gateway at a steady rate, both
// ways in turn. Measured at the recipient's socket: send-to-socket latency p50 / p95 / p99,
// messages lost (answered 201, never pushed) and duplicated (pushed twice).
// Targets: p95 ≤ 150 ms, p99 ≤ 300 ms, 0 lost, 0 duplicated.
//
//   bash infra/local/infra.sh up && pnpm turbo run build
//   node scripts/bench/conversations-live.mjs [--rate 50] [--duration 60] [--pairs 50] [--keep]
//     [--profile <dir>]   (a CPU profile of the conversations service)
//     [--services-from <checkout>]   (run the built services of another checkout, e.g. a
//                                    worktree of main, against this checkout's servers: the
//                                    "before" of a comparison made in one session)
//     [--floor-writes 2000]   (the database's write floor, measured after the run: 0 skips it)
// The services listen on 4991-4993 plus MARKETPLACE_PORT_OFFSET (as infra/local does), so
// people with their own servers can run it side by side.
//
// Besides latency it reports what one message costs the database: the write commands of the
// conversations and notifications services during the run (their /metrics, by command and
// collection, the outbox relay's and the consumers' included) per message, and the database's
// write floor: CPU-ms of the database process per plain single-document update by `_id`, the
// cheapest write there is, sent by this script at the same concurrency after the run.
import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
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
    pairs: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
    // A V8 CPU profile of the conversations service for the whole run, written to this folder
    // when it exits (open it in Chrome's DevTools, Performance panel).
    profile: { type: 'string' },
    'services-from': { type: 'string' },
    'floor-writes': { type: 'string', default: '2000' },
  },
})
const servicesRoot = args['services-from'] ?? repoRoot
const FLOOR_WRITES = Number(args['floor-writes'])
const PORT_OFFSET = Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0)
const RATE = Number(args.rate)
const DURATION_S = Number(args.duration)
const PAIRS = Number(args.pairs)

const infra = infraEnv()
const run = `bench_conv_${randomBytes(4).toString('hex')}`
const mongoUrl = (name) => `${infra.MONGO_URL_BASE}/${run}_${name}?${infra.MONGO_URL_OPTIONS}`
const { publicKey, privateKey } = generateKeyPairSync('ed25519')
const b64url = (value) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
function tokenFor(userId) {
  const now = Math.floor(Date.now() / 1000)
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url({ sub: userId, roles: ['2000'], iss: 'marketplace-auth', aud: 'marketplace', iat: now - 1, exp: now + 3600 })}`
  return `${input}.${sign(null, Buffer.from(input), createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }))).toString('base64url')}`
}
// Where the machine's cores go during the measured run: CPU seconds per process (from
// /proc/<pid>/stat, user + system, in clock ticks of 1/100 s) and the whole machine's busy
// time (/proc/stat), so a figure says whether the stack or the machine was the limit.
const TICKS_PER_S = 100
function cpuTicksOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return Number.NaN
  }
}
function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)
  const numbers = values.map(Number)
  const idle = numbers[3] + numbers[4]
  return {
    busy: numbers.reduce((a, b) => a + b, 0) - idle,
    cores: (readFileSync('/proc/stat', 'utf8').match(/^cpu\d+ /gm) ?? []).length,
  }
}
function infraPid(name) {
  const file = join(repoRoot, '.data', 'pids', `${name}.pid`)
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null
}
/**
 * The write commands a service sent so far, from its /metrics: `command collection` -> count;
 * with `reads`, every other command instead (what the database also works for).
 */
const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify'])
async function writeCommandsOf(port, { reads = false } = {}) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
  const counts = new Map()
  for (const line of text.split('\n')) {
    const match = line.match(/^mongodb_commands_total\{(.*)\} (\d+(?:\.\d+)?)$/)
    if (!match) continue
    const labels = Object.fromEntries(
      [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    )
    if (WRITE_COMMANDS.has(labels.command) !== reads)
      counts.set(`${labels.command} ${labels.collection}`, Number(match[2]))
  }
  return counts
}
const difference = (after, before) =>
  new Map(
    [...after]
      .map(([key, value]) => [key, value - (before.get(key) ?? 0)])
      .filter(([, value]) => value > 0),
  )

/**
 * The database's write floor: `count` single-document updates by `_id` on a collection of its
 * own (a counter `$inc`, as small as a write gets), `concurrency` at a time, and the CPU the
 * database process spent on them, per write.
 */
async function writeFloor(count, concurrency) {
  const client = await new MongoClient(mongoUrl('floor')).connect()
  const collection = client.db().collection('floor')
  const ids = Array.from({ length: 64 }, (_, i) => `doc-${i}`)
  await collection.insertMany(ids.map((_id) => ({ _id, n: 0 })))
  const pid = infraPid('mongo')
  const before = cpuTicksOf(pid)
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++
        await collection.updateOne({ _id: ids[i % ids.length] }, { $inc: { n: 1 } })
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const cpuMs = ((cpuTicksOf(pid) - before) / TICKS_PER_S) * 1000
  await client.db().dropDatabase()
  await client.close()
  return { cpuMsPerWrite: cpuMs / count, writesPerS: count / seconds }
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const event = (type, aggregateId, actorId, data) => ({
  id: randomBytes(16).toString('hex'),
  type,
  version: 1,
  occurredAt: new Date().toISOString(),
  actorId,
  aggregateId,
  data,
})

/** Each pair's two users announced as auth does, and the request that opens their conversation, as jobs does. */
async function announce(pairs) {
  const kafka = new Kafka({ brokers: infra.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING })
  const producer = kafka.producer()
  await producer.connect()
  const users = pairs.flatMap((pair) => [pair.owner, pair.worker])
  await producer.send({
    topic: 'auth.users',
    messages: users.map((u) => ({
      key: u.userId,
      value: JSON.stringify(
        event('user.registered', u.userId, u.userId, {
          userId: u.userId,
          email: `${u.name}.${u.userId}@bench.test`.toLowerCase(),
          firstName: u.name,
          lastName: 'Bench',
          phoneNumber: '(212) 555-0100',
          dateOfBirth: '1990-01-01',
          interest: 'Both',
          emailPreferences: false,
        }),
      ),
    })),
  })
  await producer.send({
    topic: 'jobs.requests',
    messages: pairs.map((pair) => ({
      key: pair.requestId,
      value: JSON.stringify(
        event('job-request.created', pair.requestId, pair.worker.userId, {
          requestId: pair.requestId,
          postId: pair.postId,
          postTitle: `Bench post ${pair.index}`,
          ownerId: pair.owner.userId,
          requesterId: pair.worker.userId,
          requesterName: `${pair.worker.name} Bench`,
          status: 'pending',
        }),
      ),
    })),
  })
  await producer.disconnect()
}

/** An authenticated socket through the gateway, answering every `message` push it gets. */
async function connect(site, user, onMessage) {
  const socket = io(site, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token: tokenFor(user.userId) },
  })
  await new Promise((resolve, reject) => {
    socket.once('connect_error', reject)
    socket.once('authenticated', ({ success }) =>
      success ? resolve() : reject(new Error('not authenticated')),
    )
    socket.once('connect', () => socket.emit('authenticate', user.userId))
  })
  socket.on('message', (push) => onMessage(user, push))
  return socket
}

async function main() {
  const processes = []
  const common = {
    KAFKA_BROKERS: infra.KAFKA_BROKERS,
    KAFKA_GROUP_PREFIX: `${run}-`,
    JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }
  const [conversationsPort, notificationsPort, gatewayPort] = [4991, 4992, 4993].map(
    (port) => port + PORT_OFFSET,
  )
  const sockets = []
  try {
    log('starting conversations, notifications and the gateway (built dist)...')
    const conversations = startProcess(
      'conversations',
      join(servicesRoot, 'services', 'conversations'),
      {
        ...common,
        SERVICE_NAME: 'conversations',
        MONGO_URL: mongoUrl('conversations'),
        // The per-user limit (30 a minute) is not what is measured: the rate is spread over the pairs.
        MESSAGES_PER_MINUTE: '1000000',
      },
      conversationsPort,
      args.profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] } : {},
    )
    const notifications = startProcess(
      'notifications',
      join(servicesRoot, 'services', 'notifications'),
      {
        ...common,
        SERVICE_NAME: 'notifications',
        MONGO_URL: mongoUrl('notifications'),
        SMTP_HOST: infra.SMTP_HOST,
        SMTP_PORT: infra.SMTP_PORT,
        // The groups are new and read the broker's whole history first: older events tell nobody.
        NOTICE_MAX_AGE_MS: '60000',
      },
      notificationsPort,
    )
    processes.push(conversations.child, notifications.child)
    await Promise.all([conversations.ready(), notifications.ready()])
    const gateway = startProcess(
      'gateway',
      join(servicesRoot, 'services', 'gateway'),
      {
        SERVICE_NAME: 'gateway',
        CONVERSATIONS_URL: `http://127.0.0.1:${conversationsPort}`,
        NOTIFICATIONS_URL: `http://127.0.0.1:${notificationsPort}`,
        RATE_LIMIT_MAX: '100000000',
      },
      gatewayPort,
    )
    processes.push(gateway.child)
    await gateway.ready()
    const site = `http://127.0.0.1:${gatewayPort}`
    const call = (user, method, path, body) =>
      fetch(`${site}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${tokenFor(user.userId)}`,
          ...(body && { 'content-type': 'application/json' }),
        },
        body: body && JSON.stringify(body),
      })

    // ---- the pairs and their conversations ----
    const pairs = Array.from({ length: PAIRS }, (_, index) => ({
      index,
      requestId: new ObjectId().toHexString(),
      postId: new ObjectId().toHexString(),
      owner: { userId: new ObjectId().toHexString(), name: `Owner${index}` },
      worker: { userId: new ObjectId().toHexString(), name: `Worker${index}` },
    }))
    const lagUntil = Date.now() + 900_000
    for (let lag = await consumerLag(`${run}-`); lag > 0; lag = await consumerLag(`${run}-`)) {
      if (Date.now() > lagUntil) throw new Error(`consumer groups still ${lag} events behind`)
      log(`catching up with the broker's history: ${lag} events behind...`)
      await new Promise((resolve) => setTimeout(resolve, 5000))
    }
    log(`announcing ${PAIRS * 2} users and ${PAIRS} requests; waiting for their conversations...`)
    await announce(pairs)
    const openUntil = Date.now() + 120_000
    for (const pair of pairs) {
      for (;;) {
        const answer = await call(
          pair.worker,
          'GET',
          `/api/conversations/by-request/${pair.requestId}`,
        )
        if (answer.status === 200) {
          pair.conversationId = (await answer.json())._id
          break
        }
        if (Date.now() > openUntil)
          throw new Error(
            `conversation of request ${pair.requestId}: ${answer.status} ${await answer.text()}`,
          )
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }

    // ---- sockets: one per user, through the gateway ----
    const sentAt = new Map() // text -> performance.now() at send
    const answeredAt = new Map() // text -> performance.now() at its 201
    const pushedAt = new Map() // text -> performance.now() at the recipient's first push
    const deliveries = new Map() // messageId -> pushes seen at the recipient's socket
    const latencies = []
    const answerLatencies = []
    let measuring = false
    const onMessage = (user, { message }) => {
      if (message.senderId === user.userId) return // the sender's own copy
      const copies = (deliveries.get(message._id) ?? 0) + 1
      deliveries.set(message._id, copies)
      const started = sentAt.get(message.text)
      if (copies === 1) pushedAt.set(message.text, performance.now())
      if (measuring && copies === 1 && started !== undefined)
        latencies.push(performance.now() - started)
    }
    log(`connecting ${PAIRS * 2} sockets...`)
    for (const pair of pairs) {
      sockets.push(
        await connect(site, pair.owner, onMessage),
        await connect(site, pair.worker, onMessage),
      )
    }

    // Message i goes through pair i % PAIRS, owner and worker in turn.
    const sendOne = async (i, tag) => {
      const pair = pairs[i % PAIRS]
      const from = Math.floor(i / PAIRS) % 2 === 0 ? pair.worker : pair.owner
      const text = `${tag} ${i} from ${from.name}`
      sentAt.set(text, performance.now())
      const answer = await call(
        from,
        'POST',
        `/api/conversations/${pair.conversationId}/messages`,
        { text, clientId: `${tag}-${i}` },
      )
      if (answer.status !== 201) throw new Error(`${answer.status} ${await answer.text()}`)
      answeredAt.set(text, performance.now())
      if (measuring) answerLatencies.push(answeredAt.get(text) - sentAt.get(text))
      return { id: (await answer.json())._id, text }
    }

    // ---- warm-up, not measured: one message per pair, all of them pushed ----
    log('warming up: one message per pair, not measured...')
    const warm = await Promise.all(pairs.map((_, i) => sendOne(i, 'warm-up')))
    const warmUntil = Date.now() + 120_000
    while (!warm.every(({ id }) => deliveries.has(id))) {
      if (Date.now() > warmUntil) throw new Error('warm-up messages did not all arrive')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }

    // ---- the measured run ----
    const total = RATE * DURATION_S
    log(`sending ${total} messages at ${RATE}/s for ${DURATION_S} s over ${PAIRS} conversations...`)
    measuring = true
    const profiled = [
      ['FerretDB (the database)', infraPid('mongo')],
      ['Kafka', infraPid('kafka')],
      ['conversations', processes[0]?.pid],
      ['notifications', processes[1]?.pid],
      ['gateway', processes[2]?.pid],
      ['this client (sockets, HTTP)', process.pid],
    ].filter(([, pid]) => pid)
    const cpuBefore = profiled.map(([, pid]) => cpuTicksOf(pid))
    const machineBefore = machineTicks()
    const readsBefore = await Promise.all(
      [conversationsPort, notificationsPort].map((port) => writeCommandsOf(port, { reads: true })),
    )
    const writesBefore = await Promise.all(
      [conversationsPort, notificationsPort].map((port) => writeCommandsOf(port)),
    )
    const accepted = []
    const inFlight = []
    let refused = 0
    const started = performance.now()
    await new Promise((resolve) => {
      let i = 0
      const timer = setInterval(() => {
        if (i >= total) {
          clearInterval(timer)
          return resolve()
        }
        inFlight.push(
          sendOne(i, 'bench')
            .then((sent) => accepted.push(sent))
            .catch((error) => {
              if (refused === 0) log(`first refusal: ${error.message}`)
              refused += 1
            }),
        )
        i += 1
      }, 1000 / RATE)
    })
    // Every request answered, then every accepted message given two minutes to arrive: a
    // message still missing after that counts as lost, a late one only in the percentiles.
    await Promise.allSettled(inFlight)
    const sendingS = (performance.now() - started) / 1000
    const cpuAfter = profiled.map(([, pid]) => cpuTicksOf(pid))
    const machineAfter = machineTicks()
    const waitUntil = Date.now() + 120_000
    while (!accepted.every(({ id }) => deliveries.has(id)) && Date.now() < waitUntil)
      await new Promise((resolve) => setTimeout(resolve, 200))
    // Late repeats would arrive within seconds (the outbox publishes at least once).
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const elapsedS = (performance.now() - started) / 1000
    // The writes of the run: every message relayed and handled by now (or lost).
    const readsAfter = await Promise.all(
      [conversationsPort, notificationsPort].map((port) => writeCommandsOf(port, { reads: true })),
    )
    const reads = readsAfter.map((after, i) => difference(after, readsBefore[i]))
    const writesAfter = await Promise.all(
      [conversationsPort, notificationsPort].map((port) => writeCommandsOf(port)),
    )
    const writes = writesAfter.map((after, i) => difference(after, writesBefore[i]))
    const lost = accepted.filter(({ id }) => !deliveries.has(id)).length
    const duplicated = accepted.filter(({ id }) => (deliveries.get(id) ?? 0) > 1).length
    const percentiles = (values) => {
      const sorted = [...values].sort((a, b) => a - b)
      return [50, 95, 99].map((p) => percentile(sorted, p) ?? Number.NaN)
    }
    const [p50, p95, p99] = percentiles(latencies)
    // Where the time goes: the conversations service's answer, and from it to the socket (its
    // outbox relay, Kafka, the notifications instance, the gateway's tunnel).
    const afterAnswer = accepted
      .filter(({ text }) => pushedAt.has(text))
      .map(({ text }) => Math.max(0, pushedAt.get(text) - answeredAt.get(text)))
    const shown = (values) => values.map((v) => v.toFixed(0)).join(' / ')

    console.log(`\n| measure | value |\n|---|---|`)
    console.log(
      `| messages sent | ${total} at ${RATE}/s over ${PAIRS} conversations (${accepted.length} accepted, ${refused} refused) |`,
    )
    console.log(`| pushed to the recipient's socket | ${accepted.length - lost} |`)
    console.log(
      `| send-to-socket latency p50 / p95 / p99 | ${p50.toFixed(0)} / ${p95.toFixed(0)} / ${p99.toFixed(0)} ms |`,
    )
    console.log(
      `| of which the HTTP answer p50 / p95 / p99 | ${shown(percentiles(answerLatencies))} ms |`,
    )
    console.log(`| and answer-to-socket p50 / p95 / p99 | ${shown(percentiles(afterAnswer))} ms |`)
    console.log(`| lost (not pushed within 2 min) / duplicated | ${lost} / ${duplicated} |`)
    console.log(`| run length | ${elapsedS.toFixed(0)} s |`)
    console.log(
      `\nCPU while sending (${sendingS.toFixed(0)} s, ${machineAfter.cores} cores): the machine was ` +
        `${(((machineAfter.busy - machineBefore.busy) / TICKS_PER_S / sendingS / machineAfter.cores) * 100).toFixed(0)} % busy\n` +
        `| process | CPU s | share of one core | CPU ms per message |\n|---|---|---|---|`,
    )
    profiled.forEach(([name], index) => {
      const seconds = (cpuAfter[index] - cpuBefore[index]) / TICKS_PER_S
      console.log(
        `| ${name} | ${seconds.toFixed(1)} | ${((seconds / sendingS) * 100).toFixed(0)} % | ${((seconds * 1000) / total).toFixed(1)} |`,
      )
    })
    const perMessage = (n) => (n / Math.max(1, accepted.length)).toFixed(2)
    console.log(`\n| database writes per message | service | command, collection |\n|---|---|---|`)
    let writesPerMessage = 0
    ;['conversations', 'notifications'].forEach((service, i) => {
      for (const [key, n] of [...writes[i]].sort()) {
        writesPerMessage += n / Math.max(1, accepted.length)
        console.log(`| ${perMessage(n)} | ${service} | ${key} |`)
      }
    })
    console.log(`| **${writesPerMessage.toFixed(2)}** | all | (total) |`)
    // The other commands (reads, the relay's sweep) cost the database too: their count per
    // message, the largest first, so a database's CPU beyond writes x floor has its reasons.
    const readRows = ['conversations', 'notifications'].flatMap((service, i) =>
      [...reads[i]].map(([key, n]) => [n, service, key]),
    )
    const readsPerMessage = readRows.reduce((sum, [n]) => sum + n, 0) / Math.max(1, accepted.length)
    console.log(`\n| other commands per message | service | command, collection |\n|---|---|---|`)
    for (const [n, service, key] of readRows.sort((a, b) => b[0] - a[0])) {
      console.log(`| ${perMessage(n)} | ${service} | ${key} |`)
    }
    console.log(`| **${readsPerMessage.toFixed(2)}** | all | (total) |`)
    const databaseIndex = profiled.findIndex(([name]) => name.startsWith('FerretDB'))
    if (FLOOR_WRITES > 0 && databaseIndex >= 0) {
      const floor = await writeFloor(FLOOR_WRITES, 8)
      const databaseMs = ((cpuAfter[databaseIndex] - cpuBefore[databaseIndex]) / TICKS_PER_S) * 1000
      const everythingElseMs = profiled.reduce(
        (sum, [name], index) =>
          index === databaseIndex || name.startsWith('this client')
            ? sum
            : sum + ((cpuAfter[index] - cpuBefore[index]) / TICKS_PER_S) * 1000,
        0,
      )
      console.log(
        `\nThe database's write floor (${FLOOR_WRITES} single-document updates by _id, 8 at a time, after the run): ` +
          `${floor.cpuMsPerWrite.toFixed(2)} CPU-ms per write (${floor.writesPerS.toFixed(0)} writes/s).\n` +
          `Per message: the database ${(databaseMs / total).toFixed(1)} CPU-ms ` +
          `(${writesPerMessage.toFixed(2)} writes x the floor = ${(writesPerMessage * floor.cpuMsPerWrite).toFixed(1)}), ` +
          `everything else (services, Kafka) ${(everythingElseMs / total).toFixed(1)} CPU-ms.`,
      )
    }
    const met = p95 <= 150 && p99 <= 300 && lost === 0 && duplicated === 0 && refused === 0
    console.log(
      `\nTarget p95 ≤ 150 ms, p99 ≤ 300 ms, 0 lost, 0 duplicated: ${met ? 'met' : 'NOT met'}.`,
    )
  } finally {
    for (const socket of sockets) socket.disconnect()
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1500))
    if (!args.keep) {
      const client = await new MongoClient(mongoUrl('conversations')).connect()
      for (const name of ['conversations', 'notifications'])
        await client.db(`${run}_${name}`).dropDatabase()
      await client.close()
    }
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(`[bench] failed: ${error.stack ?? error}`)
    process.exit(1)
  })
