#!/usr/bin/env node
// A marketplace day: a bounded, self-stopping workload through the gateway that behaves like
// people, on a stack of its own (stack.mjs: its own Kafka and database, every service twice),
// with faults injected and healed at set times (faults.mjs), and an account at the end of
// every acknowledged write (docs/reliability.md, "A marketplace day under faults").
//
// Guests browse and filter the feeds and search; signed-in people open details, save
// favorites, request posts and people, owners accept and decline, both sides of a request
// message each other, notifications are read, pictures uploaded; everyone holds a live socket
// (socket.io-client through the gateway, as the web app). Every acknowledged write (a request,
// a decision, a message, a favorite, a request to a person) is recorded, and at the end each is
// looked up through the API and in the other side's socket: lost, duplicated, and answers
// other than success or 503 with Retry-After are counted.
//
//   bash infra/local/infra.sh up && pnpm turbo run build
//   node scripts/load/marketplace-day.mjs [--rate 6] [--duration 300] [--users 12]
//     [--faults broker-freeze@60+20,instances-kill@130+30] [--replicas 2] [--toxiproxy]
//     [--json report.json] [--settle 120]
//
// Figures: actions/s and requests/s through the gateway, p50/p99 of the gateway's answers
// (whole run, before the first fault, and per fault), the error rate, CPU ms per action summed
// over every process of the stack (services, gateway, database, broker, Toxiproxy) from
// /proc/<pid>/stat; per fault: writes lost and duplicated, bad answers, reads that kept
// working, pushes delayed and delivered after healing, time from healing to the normal p99.
// Exit code 1 when anything acknowledged was lost or duplicated (or any bad answer with
// --strict).
import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from '../bench/infra-env.mjs'
import { needsToxiproxy, parsePlan, runFaults } from './faults.mjs'
import { startStack } from './stack.mjs'

const fromNotifications = createRequire(join(repoRoot, 'services', 'notifications', 'package.json'))
const { io } = fromNotifications('socket.io-client')

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '6' },
    duration: { type: 'string', default: '300' },
    users: { type: 'string', default: '12' },
    faults: { type: 'string', default: 'broker-freeze@60+20,instances-kill@130+30' },
    replicas: { type: 'string', default: '2' },
    toxiproxy: { type: 'boolean', default: false },
    json: { type: 'string' },
    settle: { type: 'string', default: '120' },
    seed: { type: 'string', default: '20261129' },
    strict: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '48' },
  },
})
const RATE = Number(args.rate)
const DURATION_S = Number(args.duration)
const USERS = Math.max(4, Number(args.users))
const SETTLE_S = Number(args.settle)
const MAX_IN_FLIGHT = Number(args.concurrency)
const plan = parsePlan(args.faults)
for (const fault of plan) {
  if (fault.atS + fault.durationS > DURATION_S - 10)
    throw new Error(`${fault.name} ends after the run (its last 10 s are for recovery)`)
}
const say = (message) => console.log(`[load ${new Date().toISOString().slice(11, 19)}] ${message}`)

// ---------------------------------------------------------------- deterministic choices
let state = Number(args.seed) >>> 0
const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32
const pick = (list) => list[Math.floor(random() * list.length)]
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---------------------------------------------------------------- what the run records
const calls = [] // { at, ms, route, method, status, outcome }
const badAnswers = [] // { at, route, status, detail }
const writes = [] // acknowledged writes: { kind, at, ... }
const unacknowledged = [] // writes answered 503 or worse: { kind, at, status }
let actionsDone = 0
let actionsSkipped = 0
// Keyed writes: answers a service replayed for a repeated key, and writes sent again.
let replayedAnswers = 0
let writesSentAgain = 0
// Reads sent again after no answer, as the web app does.
let readsSentAgain = 0

/** The route's pattern (ids replaced), for the figures. */
const patternOf = (path) =>
  path
    .split('?')[0]
    .replace(/[0-9a-f]{24}/g, ':id')
    .replace(/\/[0-9a-f-]{36}/g, '/:id')

let site = ''
/**
 * One call through the gateway. 2xx is success; 503 with Retry-After is an honest "not now";
 * anything else, or no answer within 30 s, is a bad answer (unless the caller expects it).
 */
async function call(method, path, { token, body, expect = [], key } = {}) {
  const started = performance.now()
  // As the web app: each signed-in write carries an Idempotency-Key, fresh for each action
  // unless the caller passes the one its earlier attempts sent.
  if (token && method !== 'GET' && method !== 'HEAD') key ??= randomUUID()
  const at = Date.now()
  let status = 0
  let retryAfter = null
  let data = null
  let detail = ''
  // As the web app's base query: a call that got no answer at all (its connection refused or
  // broken, as when the gateway holding it is killed) is sent again, up to three times, 100,
  // 200 and 400 ms apart, if it is safe to repeat: a read, or a write with its
  // Idempotency-Key (the same key, so a service that took the first attempt answers the repeat
  // with its first answer). Only the last attempt counts, as only it reaches the person; the
  // account at the end still finds any write lost or made twice. A call that timed out is not
  // sent again here.
  const repeatable = READ_METHODS.has(method) || key !== undefined
  for (let attempt = 0; ; attempt += 1) {
    ;({ status, retryAfter, data, detail } = await attemptCall(method, path, token, body, key))
    const unanswered = status === 0 && detail !== 'no answer in 30 s'
    if (!unanswered || !repeatable || attempt >= 3) break
    if (READ_METHODS.has(method)) readsSentAgain += 1
    else writesSentAgain += 1
    await sleep(100 * 2 ** attempt)
  }
  const ms = performance.now() - started
  const route = `${method} ${patternOf(path)}`
  const outcome =
    status >= 200 && status < 300
      ? 'ok'
      : status === 503 && retryAfter
        ? 'unavailable'
        : expect.includes(status)
          ? 'expected'
          : 'bad'
  calls.push({ at, ms, route, method, status, outcome })
  if (outcome === 'bad') badAnswers.push({ at, doneAt: Date.now(), route, status, detail })
  return { status, ok: outcome === 'ok', body: data }
}

const READ_METHODS = new Set(['GET', 'HEAD'])

/** One attempt of a call: its status (0: no answer), Retry-After, body and what went wrong. */
async function attemptCall(method, path, token, body, key) {
  let status = 0
  let retryAfter = null
  let data = null
  let detail = ''
  try {
    const response = await fetch(`${site}${path}`, {
      method,
      headers: {
        origin: site,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    })
    status = response.status
    retryAfter = response.headers.get('retry-after')
    if (response.headers.get('idempotent-replayed') === 'true') replayedAnswers += 1
    const text = await response.text()
    try {
      data = text ? JSON.parse(text) : null
    } catch {
      data = text
    }
    if (status >= 400)
      detail =
        typeof data === 'object' ? JSON.stringify(data).slice(0, 160) : String(data).slice(0, 160)
  } catch (error) {
    detail =
      error.name === 'TimeoutError' ? 'no answer in 30 s' : (error.cause?.code ?? error.message)
  }
  return { status, retryAfter, data, detail }
}

/**
 * A write the client may send again safely: every attempt carries the same Idempotency-Key,
 * so a service answers a repeat with the first answer (and a message has its clientId, a
 * favorite answers 200 with the entry already saved). As the web app does, sent again after a
 * 503 (its Retry-After), a 502 or 504, or no answer, up to three times. Every attempt is
 * counted.
 */
const IN_PROGRESS_CODES = new Set(['SEND_IN_PROGRESS', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'])
async function idempotentWrite(method, path, options) {
  let answer
  const key = randomUUID()
  for (let attempt = 0; attempt < 4; attempt += 1) {
    if (attempt > 0) writesSentAgain += 1
    // A message sent again while its first attempt is still being stored answers 409
    // SEND_IN_PROGRESS, a keyed write IDEMPOTENCY_REQUEST_IN_PROGRESS ("try again in a
    // moment"): the contract's answers, retried like a 503.
    answer = await call(method, path, { ...options, key, expect: [409] })
    const inProgress = answer.status === 409 && IN_PROGRESS_CODES.has(answer.body?.code)
    if (answer.status === 409 && !inProgress)
      badAnswers.push({
        at: Date.now(),
        doneAt: Date.now(),
        route: path,
        status: 409,
        detail: JSON.stringify(answer.body).slice(0, 160),
      })
    if (answer.ok || !(inProgress || [0, 502, 503, 504].includes(answer.status))) return answer
    await sleep(1000 * (attempt + 1))
  }
  return answer
}

// ---------------------------------------------------------------- people
async function mailedCode(mailApi, email) {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const search = await (await fetch(`${mailApi}/api/v1/search?query=to:${email}`)).json()
    const mail = search.messages?.[0]
    if (mail) {
      const full = await (await fetch(`${mailApi}/api/v1/message/${mail.ID}`)).json()
      const code = full.Text.match(/\b(\d{6})\b/)?.[1]
      if (code) return code
    }
    await sleep(500)
  }
  throw new Error(`no code mailed to ${email}`)
}

const FIRST = [
  'Ava',
  'Ben',
  'Cleo',
  'Dev',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivo',
  'Jude',
  'Kai',
  'Lia',
]
async function signUp(mailApi, index) {
  const firstname = FIRST[index % FIRST.length]
  const email = `${firstname}.${randomBytes(4).toString('hex')}@load.example.test`.toLowerCase()
  const password = 'LoadDay2026!'
  const signup = await call('POST', '/api/auth/signup', {
    body: {
      firstname,
      lastname: 'Loadtest',
      email,
      phoneNumber: '2125550100',
      password,
      dateOfBirth: '1988-04-02',
      interest: 'Both',
      emailPreferences: false,
      termsAgreed: true,
    },
  })
  if (signup.status !== 201) throw new Error(`sign-up of ${email}: ${signup.status}`)
  const code = await mailedCode(mailApi, email)
  const confirmed = await call('POST', '/api/auth/confirm-signup', { body: { email, code } })
  if (confirmed.status !== 200) throw new Error(`confirmation of ${email}: ${confirmed.status}`)
  const login = await call('POST', '/api/auth/direct-login', { body: { email, password } })
  if (login.status !== 200) throw new Error(`login of ${email}: ${login.status}`)
  const person = {
    index,
    name: firstname,
    email,
    userId: login.body.user._id,
    token: login.body.accessToken,
    posts: [],
    pushes: { message: [], notification: [] },
    disconnected: [], // [from, to] while the socket was away
  }
  for (let i = 0; i < 240; i += 1) {
    if (
      (await call('GET', `/api/users/${person.userId}`, { token: person.token, expect: [404] })).ok
    )
      return person
    await sleep(500)
  }
  throw new Error(`people never had ${email}'s profile`)
}

function openSocket(person) {
  const socket = io(site, {
    path: '/socket.io',
    auth: { token: person.token },
    reconnectionDelay: 500,
    reconnectionDelayMax: 2000,
  })
  person.socket = socket
  // Away from the disconnect until the server has taken the user's `authenticate` again:
  // until then no push reaches this socket.
  let awaySince = null
  socket.on('connect', () => {
    socket.emit('authenticate', person.userId)
  })
  socket.on('authenticated', () => {
    if (awaySince) person.disconnected.push([awaySince, Date.now()])
    awaySince = null
  })
  socket.on('disconnect', () => {
    awaySince ??= Date.now()
  })
  socket.on('message', (payload) =>
    person.pushes.message.push({ at: Date.now(), id: payload?.message?._id }),
  )
  socket.on('notification', (payload) =>
    person.pushes.notification.push({
      at: Date.now(),
      id: payload?.notification?._id,
      kind: payload?.notification?.kind,
    }),
  )
  return new Promise((resolve) => socket.once('authenticated', resolve))
}

// ---------------------------------------------------------------- the actions
const WORDS = ['garden', 'piano', 'paint', 'boxes', 'shelves', 'lawn', 'dog', 'fence']
const CATEGORIES = ['Moving', 'Cleaning', 'Gardening', 'Pet care']
let people = []
let owners = []
let workers = []
const allPosts = () => owners.flatMap((owner) => owner.posts)
const requested = new Set() // `${workerId}:${postId}` tried (acknowledged or not)
const favorited = new Set()
const personRequested = new Set()
const jobRequests = [] // acknowledged: { id, postId, ownerId, workerId, status, conversationId }

async function guestBrowse() {
  const page = 1 + Math.floor(random() * 3)
  const choice = random()
  if (choice < 0.4) await call('GET', `/api/jobs?page=${page}&limit=12`)
  else if (choice < 0.6)
    await call('GET', `/api/jobs?page=1&limit=12&category=${encodeURIComponent(pick(CATEGORIES))}`)
  else if (choice < 0.75) await call('GET', `/api/jobs?page=1&limit=12&sort=asc`)
  else await call('GET', `/api/people?page=${page}&limit=12`)
}
async function guestSearch() {
  const word = pick(WORDS)
  if (random() < 0.7) await call('GET', `/api/jobs?search=${word}`)
  else await call('GET', `/api/people?search=${word}`)
}
async function openDetails() {
  const person = pick(people)
  await call('GET', `/api/jobs/${pick(allPosts())._id}`, { token: person.token })
}
async function favorite() {
  const person = pick(people)
  const post = pick(allPosts().filter((p) => p.ownerId !== person.userId))
  const key = `${person.userId}:${post._id}`
  if (favorited.has(key)) return openDetails()
  favorited.add(key)
  const answer = await idempotentWrite('POST', '/api/favorites/posts', {
    token: person.token,
    body: { userId: person.userId, postId: post._id },
  })
  if (answer.ok)
    writes.push({ kind: 'favorite', at: Date.now(), userId: person.userId, postId: post._id })
  else unacknowledged.push({ kind: 'favorite', at: Date.now(), status: answer.status })
}
async function requestPost(worker = pick(workers), post) {
  post ??= pick(allPosts().filter((p) => !requested.has(`${worker.userId}:${p._id}`)))
  if (!post) return openDetails()
  requested.add(`${worker.userId}:${post._id}`)
  const answer = await idempotentWrite('POST', '/api/jobs/requests', {
    token: worker.token,
    body: { postID: post._id },
  })
  if (answer.ok) {
    const request = {
      id: answer.body._id,
      postId: post._id,
      ownerId: post.ownerId,
      workerId: worker.userId,
      status: 'pending',
    }
    jobRequests.push(request)
    writes.push({ kind: 'post-request', at: Date.now(), ...request })
  } else unacknowledged.push({ kind: 'post-request', at: Date.now(), status: answer.status })
  return answer
}
async function decide() {
  const pending = jobRequests.filter((r) => r.status === 'pending' && !r.deciding)
  if (pending.length === 0) return requestPost()
  const request = pick(pending)
  const owner = people.find((p) => p.userId === request.ownerId)
  const status = random() < 0.7 ? 'accepted' : 'rejected'
  request.deciding = true
  const answer = await idempotentWrite('PATCH', `/api/jobs/requests/${request.id}`, {
    token: owner.token,
    body: { status },
  })
  request.deciding = false
  if (answer.ok) {
    request.status = status
    writes.push({
      kind: 'decision',
      at: Date.now(),
      requestId: request.id,
      status,
      ownerId: owner.userId,
      workerId: request.workerId,
    })
  } else unacknowledged.push({ kind: 'decision', at: Date.now(), status: answer.status })
}
async function requestPerson() {
  const owner = pick(owners)
  const post = pick(owner.posts)
  const worker = pick(workers.filter((w) => !personRequested.has(`${post._id}:${w.userId}`)))
  if (!worker) return openDetails()
  personRequested.add(`${post._id}:${worker.userId}`)
  const answer = await idempotentWrite('POST', '/api/people/requests', {
    token: owner.token,
    body: { postID: post._id, requestedID: worker.userId },
  })
  if (answer.ok)
    writes.push({
      kind: 'person-request',
      at: Date.now(),
      id: answer.body._id,
      ownerId: owner.userId,
      workerId: worker.userId,
      postId: post._id,
    })
  else unacknowledged.push({ kind: 'person-request', at: Date.now(), status: answer.status })
}
async function conversationOf(request) {
  if (request.conversationId) return request.conversationId
  const worker = people.find((p) => p.userId === request.workerId)
  const answer = await call('GET', `/api/conversations/by-request/${request.id}`, {
    token: worker.token,
    expect: [404],
  })
  if (answer.ok) request.conversationId = answer.body._id
  return request.conversationId
}
async function message() {
  const open = jobRequests.filter((r) => r.status !== 'rejected')
  if (open.length === 0) return requestPost()
  const request = pick(open)
  const conversationId = await conversationOf(request)
  if (!conversationId) return
  const fromWorker = random() < 0.5
  const sender = people.find((p) => p.userId === (fromWorker ? request.workerId : request.ownerId))
  const recipient = people.find(
    (p) => p.userId === (fromWorker ? request.ownerId : request.workerId),
  )
  const clientId = randomUUID()
  const answer = await idempotentWrite('POST', `/api/conversations/${conversationId}/messages`, {
    token: sender.token,
    body: { text: `About ${pick(WORDS)}: ${clientId.slice(0, 8)}`, clientId },
  })
  if (answer.ok)
    writes.push({
      kind: 'message',
      at: Date.now(),
      id: answer.body._id,
      clientId,
      conversationId,
      senderId: sender.userId,
      recipientId: recipient.userId,
    })
  else unacknowledged.push({ kind: 'message', at: Date.now(), status: answer.status })
}
async function readNotifications() {
  const person = pick(people)
  const list = await call('GET', '/api/notifications?limit=10', { token: person.token })
  if (list.ok && random() < 0.5)
    await call('PATCH', '/api/notifications/mark-all-read', { token: person.token })
}
async function readConversations() {
  const person = pick(people)
  await call('GET', '/api/conversations', { token: person.token })
}
// A 1x1 PNG: the picture the media service checks and re-encodes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
)
let uploads = 0
async function upload() {
  const person = pick(owners)
  const slot = await call('POST', '/api/upload', {
    token: person.token,
    body: { fileName: 'photo.png', fileType: 'image/png', fileSize: PNG.length },
  })
  if (!slot.ok) return
  const put = await fetch(slot.body.presignedUrl, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: PNG,
    signal: AbortSignal.timeout(30_000),
  }).catch(() => null)
  if (!put?.ok) return
  const complete = await call('POST', '/api/upload/complete', {
    token: person.token,
    body: { objectKey: slot.body.objectKey },
  })
  if (complete.ok) uploads += 1
}

/** The mix: weight, action. Reads dominate, as on a marketplace. */
const MIX = [
  [22, 'browse', guestBrowse],
  [10, 'search', guestSearch],
  [16, 'details', openDetails],
  [8, 'favorite', favorite],
  [8, 'request', () => requestPost()],
  [6, 'decision', decide],
  [4, 'person-request', requestPerson],
  [14, 'message', message],
  [7, 'notifications', readNotifications],
  [3, 'conversations', readConversations],
  [2, 'upload', upload],
]
const MIX_TOTAL = MIX.reduce((sum, [weight]) => sum + weight, 0)
function pickAction() {
  let r = random() * MIX_TOTAL
  for (const [weight, name, run] of MIX) {
    if ((r -= weight) < 0) return [name, run]
  }
  return MIX[0].slice(1)
}

// ---------------------------------------------------------------- CPU from /proc
const TICKS_PER_S = 100
function ticksOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return null
  }
}
/** Per pid: ticks at the first and last sample; pids born during the run count from 0. */
function cpuMeter(pidsOf) {
  const seen = new Map()
  let first = true
  const sample = () => {
    for (const { name, pid } of pidsOf()) {
      const ticks = ticksOf(pid)
      if (ticks === null) continue
      const entry = seen.get(pid) ?? { name, from: first ? ticks : 0, to: ticks }
      entry.to = ticks
      seen.set(pid, entry)
    }
    first = false
  }
  sample()
  const timer = setInterval(sample, 500)
  return {
    stop() {
      clearInterval(timer)
      sample()
      const byName = {}
      for (const { name, from, to } of seen.values()) {
        const group = name.replace(/-\d+$/, '')
        byName[group] = (byName[group] ?? 0) + ((to - from) / TICKS_PER_S) * 1000
      }
      return byName
    },
  }
}

// ---------------------------------------------------------------- figures
const percentile = (values, p) => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)])
}
const READ_KINDS = {
  feeds: /^GET \/api\/(jobs|people)$/,
  details: /^GET \/api\/jobs\/:id$/,
  notifications: /^GET \/api\/notifications$/,
  conversations: /^GET \/api\/conversations$/,
}

async function main() {
  const toxiproxy = args.toxiproxy || needsToxiproxy(plan)
  say(
    `starting the stack (${args.replicas} of every service${toxiproxy ? ', Toxiproxy in front of every server' : ''})...`,
  )
  const stackStarted = Date.now()
  const stack = await startStack({
    replicas: Number(args.replicas),
    toxiproxy,
    serviceEnv: {
      auth: { ACCESS_TOKEN_TTL_SECONDS: String(Math.max(1800, DURATION_S + SETTLE_S + 600)) },
    },
  })
  let stopping = false
  const stopAll = async () => {
    if (stopping) return
    stopping = true
    for (const person of people) person.socket?.disconnect()
    await stack.stop()
  }
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => stopAll().then(() => process.exit(130)))
  site = stack.site
  say(
    `stack up in ${Math.round((Date.now() - stackStarted) / 1000)} s at ${site} (logs ${stack.logDir})`,
  )
  try {
    // ---- setup: people, worker profiles, posts, sockets
    const setupStarted = Date.now()
    people = []
    for (let i = 0; i < USERS; i += 4) {
      const batch = Array.from({ length: Math.min(4, USERS - i) }, (_, k) =>
        signUp(stack.mailApi, i + k),
      )
      people.push(...(await Promise.all(batch)))
    }
    const ownerCount = Math.ceil(USERS / 3)
    owners = people.slice(0, ownerCount)
    workers = people.slice(ownerCount)
    await Promise.all(
      workers.map((worker) =>
        call('PUT', `/api/users/${worker.userId}/worker-profile`, {
          token: worker.token,
          body: {
            title: `Helper ${worker.name}`,
            skills: ['Lifting', 'Gardening'],
            availability: 'Weekdays',
            paymentType: 'Cash',
            location: 'Denver CO',
            contacts: [{ value: worker.email, visibility: 'public' }],
          },
        }),
      ),
    )
    for (const owner of owners) {
      for (let n = 0; n < 4; n += 1) {
        const created = await call('POST', '/api/jobs', {
          token: owner.token,
          body: {
            title: `Help with the ${WORDS[(owner.index + n) % WORDS.length]} ${n}`,
            where: 'Denver CO',
          },
        })
        if (!created.ok) throw new Error(`a post of ${owner.email}: ${created.status}`)
        owner.posts.push({ _id: created.body._id, ownerId: owner.userId })
      }
    }
    await Promise.all(people.map(openSocket))
    // jobs answers 403 to a request until people's events told it the worker is one.
    for (const worker of workers) {
      const post = owners[worker.index % owners.length].posts[0]
      for (let attempt = 0; ; attempt += 1) {
        requested.delete(`${worker.userId}:${post._id}`)
        const answer = await requestPost(worker, post)
        if (answer.ok) break
        if (attempt > 120) throw new Error(`jobs never let ${worker.email} request`)
        await sleep(500)
      }
    }
    // The setup's calls (sign-ups, profiles, 403s while jobs learned the workers) are not the
    // day's figures.
    calls.length = 0
    badAnswers.length = 0
    say(
      `${people.length} people (${owners.length} owners, ${workers.length} workers), ${allPosts().length} posts, every socket open, in ${Math.round((Date.now() - setupStarted) / 1000)} s`,
    )

    // ---- the day
    const cpu = cpuMeter(stack.pids)
    const generatorCpu = process.cpuUsage()
    const startedAt = Date.now()
    const endAt = startedAt + DURATION_S * 1000
    const faultEvents = []
    // The day goes on until its duration is over and the last fault has been healed for 15 s
    // (a restart that takes long on a busy machine still gets load after it).
    let faultsOverAt = plan.length === 0 ? startedAt : Infinity
    const faultsDone = runFaults(stack, plan, startedAt, (event) => {
      faultEvents.push(event)
      say(`${event.what} ${event.fault}`)
    }).finally(() => {
      faultsOverAt = Date.now()
    })
    faultsDone.catch((error) => say(`fault runner: ${error.message}`))
    let inFlight = 0
    const running = new Set()
    const perAction = {}
    for (let tick = 0; ; tick += 1) {
      const due = startedAt + (tick * 1000) / RATE
      if (due >= endAt && due >= faultsOverAt + 15_000) break
      const wait = due - Date.now()
      if (wait > 0) await sleep(wait)
      if (inFlight >= MAX_IN_FLIGHT) {
        actionsSkipped += 1
        continue
      }
      const [name, run] = pickAction()
      inFlight += 1
      const started = performance.now()
      const task = run()
        .catch((error) =>
          badAnswers.push({
            at: Date.now(),
            doneAt: Date.now(),
            route: name,
            status: 0,
            detail: error.message,
          }),
        )
        .finally(() => {
          inFlight -= 1
          actionsDone += 1
          ;(perAction[name] ??= []).push(performance.now() - started)
          running.delete(task)
        })
      running.add(task)
    }
    const loadEnded = Date.now()
    await Promise.all(running)
    const faults = await faultsDone
    const runEnded = Date.now()
    const cpuMs = cpu.stop()
    const generator = process.cpuUsage(generatorCpu)
    say(
      `day over: ${actionsDone} actions in ${Math.round((runEnded - startedAt) / 1000)} s; settling (up to ${SETTLE_S} s) and checking every acknowledged write...`,
    )

    // ---- the account: every acknowledged write, through the API and the other side's socket
    const report = await account(stack, {
      startedAt,
      loadEnded,
      runEnded,
      faults,
      cpuMs,
      generator,
      perAction,
    })
    report.command =
      `node scripts/load/marketplace-day.mjs ${process.argv.slice(2).join(' ')}`.trim()
    report.date = new Date().toISOString()
    report.loadAverage = loadavg().map((value) => Number(value.toFixed(2)))
    printReport(report)
    if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`)
    const failed =
      report.lost > 0 || report.duplicated > 0 || (args.strict && report.badAnswers.total > 0)
    process.exitCode = failed ? 1 : 0
  } finally {
    await stopAll()
  }
}

/** Everything a list route gives for one person, every page. */
async function messagesOf(conversationId, token) {
  const items = []
  let before = null
  for (let page = 0; page < 100; page += 1) {
    const answer = await call(
      'GET',
      `/api/conversations/${conversationId}/messages${before ? `?before=${encodeURIComponent(before)}` : ''}`,
      { token },
    )
    if (!answer.ok) throw new Error(`messages of ${conversationId}: ${answer.status}`)
    items.push(...answer.body.items)
    if (!answer.body.nextCursor) return items
    before = answer.body.nextCursor
  }
  return items
}
async function notificationsOf(person) {
  const items = []
  for (let page = 1; page < 100; page += 1) {
    const answer = await call('GET', `/api/notifications?page=${page}&limit=50`, {
      token: person.token,
    })
    if (!answer.ok) throw new Error(`notifications of ${person.email}: ${answer.status}`)
    items.push(...answer.body.notifications)
    if (page >= answer.body.pagination.pages) return items
  }
  return items
}

async function account(
  stack,
  { startedAt, loadEnded, runEnded, faults, cpuMs, generator, perAction },
) {
  const byId = new Map(people.map((p) => [p.userId, p]))
  const messageWrites = writes.filter((w) => w.kind === 'message')
  const requestWrites = writes.filter((w) => w.kind === 'post-request')
  const decisionWrites = writes.filter((w) => w.kind === 'decision')
  // Pushes still on their way (a fault healed late, an outbox swept): wait for them, up to
  // --settle, then take the API's word.
  const expectedPush = (w) => byId.get(w.recipientId).pushes.message.some((p) => p.id === w.id)
  const settleUntil = Date.now() + SETTLE_S * 1000
  while (Date.now() < settleUntil && !messageWrites.every(expectedPush)) await sleep(1000)
  const checkCalls = calls.length

  const lost = []
  const duplicated = []
  // Requests on posts: in the owner's received list once, with the last decision's status.
  const lastDecision = new Map()
  for (const d of decisionWrites) lastDecision.set(d.requestId, d.status)
  for (const owner of owners) {
    const received = await call('GET', `/api/jobs/user/${owner.userId}/received-requests`, {
      token: owner.token,
    })
    const list = received.body ?? []
    const pairs = new Map()
    for (const r of list) {
      const key = `${r.requester._id}:${r.post._id}`
      pairs.set(key, (pairs.get(key) ?? 0) + 1)
    }
    for (const [key, count] of pairs)
      if (count > 1) duplicated.push({ kind: 'post-request', key, count })
    for (const w of requestWrites.filter((x) => x.ownerId === owner.userId)) {
      const found = list.find((r) => r._id === w.id)
      if (!found) lost.push({ kind: 'post-request', id: w.id, at: w.at })
      else if (lastDecision.has(w.id) && found.status !== lastDecision.get(w.id))
        lost.push({
          kind: 'decision',
          id: w.id,
          expected: lastDecision.get(w.id),
          found: found.status,
        })
    }
  }
  // Favorites: in the person's list once.
  for (const person of people) {
    const mine = writes.filter((w) => w.kind === 'favorite' && w.userId === person.userId)
    if (mine.length === 0) continue
    const answer = await call('GET', `/api/favorites/posts/${person.userId}`, {
      token: person.token,
    })
    const body = answer.body
    const list = Array.isArray(body) ? body : []
    const postIdOf = (entry) => entry.favoriteID?._id
    for (const w of mine) {
      const count = list.filter((entry) => postIdOf(entry) === w.postId).length
      if (count === 0) lost.push({ kind: 'favorite', postId: w.postId, userId: w.userId, at: w.at })
      if (count > 1) duplicated.push({ kind: 'favorite', postId: w.postId, count })
    }
  }
  // Requests to people: in the worker's received list once.
  for (const worker of workers) {
    const mine = writes.filter((w) => w.kind === 'person-request' && w.workerId === worker.userId)
    if (mine.length === 0) continue
    const answer = await call('GET', '/api/people/requests/received', { token: worker.token })
    const list = answer.body ?? []
    for (const w of mine) {
      const count = list.filter((r) => r._id === w.id).length
      if (count === 0) lost.push({ kind: 'person-request', id: w.id, at: w.at })
      if (count > 1) duplicated.push({ kind: 'person-request', id: w.id, count })
    }
    const pairs = new Map()
    for (const r of list) {
      const key = `${r.post?._id}:${r.requester?._id}`
      pairs.set(key, (pairs.get(key) ?? 0) + 1)
    }
    for (const [key, count] of pairs)
      if (count > 1) duplicated.push({ kind: 'person-request', key, count })
  }
  // Messages: in the conversation once (by id and by the sender's clientId), pushed to the
  // recipient's socket once.
  const conversations = [...new Set(messageWrites.map((w) => w.conversationId))]
  let pushesLost = 0
  let pushesDuplicated = 0
  let pushesMissedWhileAway = 0
  const lostPushes = []
  const pushDelays = []
  for (const conversationId of conversations) {
    const mine = messageWrites.filter((w) => w.conversationId === conversationId)
    const reader = byId.get(mine[0].senderId)
    const stored = await messagesOf(conversationId, reader.token)
    const clientIds = new Map()
    for (const m of stored)
      if (m.clientId) clientIds.set(m.clientId, (clientIds.get(m.clientId) ?? 0) + 1)
    for (const w of mine) {
      if (!stored.some((m) => m._id === w.id)) lost.push({ kind: 'message', id: w.id, at: w.at })
      if ((clientIds.get(w.clientId) ?? 0) > 1)
        duplicated.push({ kind: 'message', clientId: w.clientId, count: clientIds.get(w.clientId) })
      const recipient = byId.get(w.recipientId)
      const pushes = recipient.pushes.message.filter((p) => p.id === w.id)
      if (pushes.length > 1) pushesDuplicated += 1
      if (pushes.length === 0) {
        // A socket that was reconnecting when the message was pushed misses it; the app reads
        // the conversation again on reconnecting. Counted apart from a push lost to a socket
        // that stayed connected.
        const away = recipient.disconnected.some(
          ([from, to]) => w.at >= from - 5000 && w.at <= to + 5000,
        )
        if (away) pushesMissedWhileAway += 1
        else {
          pushesLost += 1
          lostPushes.push({
            at: w.at,
            messageId: w.id,
            recipient: recipient.email,
            away: recipient.disconnected.map(([from, to]) => [from - w.at, to - w.at]),
          })
        }
      } else pushDelays.push({ at: w.at, delay: pushes[0].at - w.at })
    }
  }
  // Notifications: each request's owner and each decision's requester hold one, stored; the
  // live pushes are counted against them.
  let notificationsMissing = 0
  let notificationDuplicates = 0
  let notificationPushes = 0
  for (const person of people) {
    const expectedRequests = requestWrites.filter((w) => w.ownerId === person.userId).length
    const expectedDecisions = decisionWrites.filter((w) => w.workerId === person.userId).length
    if (expectedRequests + expectedDecisions === 0) continue
    const stored = await notificationsOf(person)
    const ids = new Map()
    for (const n of stored) ids.set(n._id, (ids.get(n._id) ?? 0) + 1)
    notificationDuplicates += [...ids.values()].filter((c) => c > 1).length
    const requestsStored = stored.filter((n) => n.kind === 'post-request').length
    const decisionsStored = stored.filter((n) => n.kind === 'request-status').length
    notificationsMissing +=
      Math.max(0, expectedRequests - requestsStored) +
      Math.max(0, expectedDecisions - decisionsStored)
    const pushed = new Map()
    for (const p of person.pushes.notification) pushed.set(p.id, (pushed.get(p.id) ?? 0) + 1)
    notificationPushes += pushed.size
    notificationDuplicates += [...pushed.values()].filter((c) => c > 1).length
  }

  // ---- figures
  const day = calls.slice(0, checkCalls).filter((c) => c.at >= startedAt && c.at <= runEnded)
  const firstFault = faults.length ? Math.min(...faults.map((f) => f.injectedAt)) : runEnded
  const baseline = day.filter((c) => c.at < firstFault)
  const baselineP99 = percentile(
    baseline.filter((c) => c.outcome === 'ok').map((c) => c.ms),
    99,
  )
  const windowMs = 5000
  const perFault = faults.map((fault) => {
    const during = day.filter((c) => c.at >= fault.injectedAt && c.at < fault.healDoneAt)
    const reads = {}
    for (const [kind, pattern] of Object.entries(READ_KINDS)) {
      const these = during.filter((c) => pattern.test(c.route))
      const statuses = {}
      for (const c of these.filter((x) => x.outcome !== 'ok'))
        statuses[c.status] = (statuses[c.status] ?? 0) + 1
      reads[kind] = {
        ok: these.filter((c) => c.outcome === 'ok').length,
        of: these.length,
        statuses,
      }
    }
    const writesDuring = writes.filter((w) => w.at >= fault.injectedAt && w.at < fault.healDoneAt)
    const msgDuring = pushDelays.filter((d) => d.at >= fault.injectedAt && d.at < fault.healDoneAt)
    // The first 5 s window after healing whose p99 is back within twice the baseline's (or
    // 50 ms over it, whichever is more), counted from the heal.
    const normal = Math.max(2 * (baselineP99 ?? 0), (baselineP99 ?? 0) + 50)
    let recoveredS = null
    for (let from = fault.healedAt; from < runEnded; from += windowMs) {
      const window = day.filter((c) => c.at >= from && c.at < from + windowMs && c.outcome === 'ok')
      if (
        window.length >= 3 &&
        percentile(
          window.map((c) => c.ms),
          99,
        ) <= normal
      ) {
        recoveredS = Math.round((from + windowMs - fault.healedAt) / 1000)
        break
      }
    }
    const lostHere = lost.filter(
      (l) => l.at >= fault.injectedAt - 30_000 && l.at < fault.healDoneAt + 30_000,
    )
    return {
      fault: fault.name,
      durationS: Math.round((fault.healedAt - fault.injectedAt) / 1000),
      healTookMs: fault.healDoneAt - fault.healedAt,
      calls: during.length,
      badAnswers: badAnswers.filter(
        (b) => b.at >= fault.injectedAt && b.at < fault.healDoneAt + 5000,
      ).length,
      unavailable503: during.filter((c) => c.outcome === 'unavailable').length,
      writesAcknowledged: writesDuring.length,
      writesUnacknowledged: unacknowledged.filter(
        (u) => u.at >= fault.injectedAt && u.at < fault.healDoneAt,
      ).length,
      lostNearby: lostHere.length,
      reads,
      messagePushes: {
        delivered: msgDuring.length,
        delayedOver2s: msgDuring.filter((d) => d.delay > 2000).length,
        deliveredAfterHealing: msgDuring.filter((d) => d.at + d.delay >= fault.healedAt).length,
        p99Ms: percentile(
          msgDuring.map((d) => d.delay),
          99,
        ),
      },
      p99DuringMs: percentile(
        during.filter((c) => c.outcome === 'ok').map((c) => c.ms),
        99,
      ),
      secondsToNormalP99: recoveredS,
    }
  })
  const ok = day.filter((c) => c.outcome === 'ok')
  const durationS = (loadEnded - startedAt) / 1000
  const stackCpuMs = Object.values(cpuMs).reduce((a, b) => a + b, 0)
  const badByRoute = {}
  for (const b of badAnswers.filter((x) => x.at <= runEnded)) {
    const key = `${b.route} ${b.status}`
    badByRoute[key] = (badByRoute[key] ?? 0) + 1
  }
  return {
    rate: RATE,
    durationS: Math.round(durationS),
    users: people.length,
    replicas: Number(args.replicas),
    actions: actionsDone,
    actionsSkipped,
    actionsPerS: Number((actionsDone / durationS).toFixed(2)),
    requestsPerS: Number((day.length / durationS).toFixed(2)),
    p50Ms: percentile(
      ok.map((c) => c.ms),
      50,
    ),
    p99Ms: percentile(
      ok.map((c) => c.ms),
      99,
    ),
    baselineP50Ms: percentile(
      baseline.filter((c) => c.outcome === 'ok').map((c) => c.ms),
      50,
    ),
    baselineP99Ms: baselineP99,
    errorRate: Number(
      (day.filter((c) => c.outcome === 'bad').length / Math.max(1, day.length)).toFixed(4),
    ),
    unavailable503: day.filter((c) => c.outcome === 'unavailable').length,
    cpuMsPerAction: Number((stackCpuMs / Math.max(1, actionsDone)).toFixed(1)),
    cpuMsByProcess: Object.fromEntries(Object.entries(cpuMs).map(([k, v]) => [k, Math.round(v)])),
    loadGeneratorCpuMs: Math.round((generator.user + generator.system) / 1000),
    actionP99Ms: Object.fromEntries(
      Object.entries(perAction).map(([k, v]) => [k, percentile(v, 99)]),
    ),
    writes: {
      acknowledged: writes.length,
      byKind: writes.reduce((acc, w) => ({ ...acc, [w.kind]: (acc[w.kind] ?? 0) + 1 }), {}),
      unacknowledged: unacknowledged.length,
      uploads,
    },
    lost: lost.length,
    duplicated: duplicated.length,
    lostItems: lost.slice(0, 20),
    duplicatedItems: duplicated.slice(0, 20),
    pushes: {
      messages: messageWrites.length,
      delivered: pushDelays.length,
      lostWhileConnected: pushesLost,
      missedWhileReconnecting: pushesMissedWhileAway,
      lostPushes: lostPushes.slice(0, 20),
      duplicated: pushesDuplicated,
      p50Ms: percentile(
        pushDelays.map((d) => d.delay),
        50,
      ),
      p99Ms: percentile(
        pushDelays.map((d) => d.delay),
        99,
      ),
      notificationsPushed: notificationPushes,
      notificationsMissing,
      notificationsDuplicated: notificationDuplicates,
    },
    badAnswers: {
      total: badAnswers.filter((x) => x.at <= runEnded).length,
      byRoute: badByRoute,
      first: badAnswers.slice(0, 10),
    },
    idempotency: { writesSentAgain, replayedAnswers, readsSentAgain },
    faults: perFault,
  }
}

function printReport(r) {
  say(
    `${r.actions} actions (${r.actionsPerS}/s, ${r.requestsPerS} requests/s through the gateway; ${r.actionsSkipped} skipped at the in-flight cap)`,
  )
  say(
    `gateway answers: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms (before the first fault: p50 ${r.baselineP50Ms}, p99 ${r.baselineP99Ms}); error rate ${(r.errorRate * 100).toFixed(2)} %, ${r.unavailable503} × 503 with Retry-After`,
  )
  say(
    `CPU ${r.cpuMsPerAction} ms per action over the stack's processes (${JSON.stringify(r.cpuMsByProcess)}); the load generator ${r.loadGeneratorCpuMs} ms`,
  )
  say(
    `writes acknowledged ${r.writes.acknowledged} ${JSON.stringify(r.writes.byKind)}, not acknowledged ${r.writes.unacknowledged}; LOST ${r.lost}, DUPLICATED ${r.duplicated}`,
  )
  say(
    `message pushes: ${r.pushes.delivered} of ${r.pushes.messages} delivered (p50 ${r.pushes.p50Ms} ms, p99 ${r.pushes.p99Ms} ms), ${r.pushes.lostWhileConnected} lost to a connected socket, ${r.pushes.missedWhileReconnecting} missed while reconnecting, ${r.pushes.duplicated} duplicated; notifications: ${r.pushes.notificationsPushed} pushed, ${r.pushes.notificationsMissing} missing, ${r.pushes.notificationsDuplicated} duplicated`,
  )
  say(`bad answers: ${r.badAnswers.total} ${JSON.stringify(r.badAnswers.byRoute)}`)
  say(
    `keyed writes: ${r.idempotency.writesSentAgain} sent again, ${r.idempotency.replayedAnswers} answered with the first answer (Idempotency-Key); ${r.idempotency.readsSentAgain} reads sent again after no answer`,
  )
  for (const f of r.faults) say(`fault ${f.fault} (${f.durationS} s): ${JSON.stringify(f)}`)
  if (r.lost) say(`lost: ${JSON.stringify(r.lostItems)}`)
  if (r.duplicated) say(`duplicated: ${JSON.stringify(r.duplicatedItems)}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(2)
})
