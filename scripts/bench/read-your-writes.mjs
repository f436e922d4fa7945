#!/usr/bin/env node
// Read-your-writes across two instances (docs/consistency.md), under a mixed workload: two
// jobs instances behind the gateway, writers that create posts, read them back at once (page
// 1 and search, as plain clients sending no header) and now and then hide a post's location,
// and guests reading pages and searches meanwhile. Every client has an address of its own
// (X-Forwarded-For, the gateway trusting one proxy), as people behind a load balancer do.
//
// Reports, for the reads through the gateway: how often a read had to read posts from the
// database first (x-read-after-refreshed > 0: its instance had not applied a write the caller
// made, or one that hid something), the latency of those reads against the others (p50, p99,
// and their ratio, in the same run), and how often a writer's read missed its own write (0
// is the point). As a control, one direct read per write of a random instance without any
// position: how often an instance really lags.
//
//   node scripts/bench/read-your-writes.mjs [--duration 20] [--writers 8] [--readers 16]
//
// Needs `bash infra/local/infra.sh up` and a build (pnpm turbo run build). Uses ports 4990 to
// 4992 (+ MARKETPLACE_PORT_OFFSET) and a database of its own, dropped at the end.
import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { log, startProcess } from './feed-bench-lib.mjs'
import { infraEnv, repoRoot } from './infra-env.mjs'

const { MongoClient } = createRequire(join(repoRoot, 'services', 'jobs', 'package.json'))('mongodb')

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    writers: { type: 'string', default: '8' },
    readers: { type: 'string', default: '16' },
  },
})
const durationMs = Number(args.duration) * 1000

const infra = infraEnv()
const offset = Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0)
const gatewayPort = 4990 + offset
const jobsPorts = [4991 + offset, 4992 + offset]
const database = `bench_ryw_${randomBytes(4).toString('hex')}`
const mongoUrl = `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`

const { publicKey, privateKey } = generateKeyPairSync('ed25519')
const b64url = (value) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url')
/** An access token as the auth service issues it (EdDSA), signed with this run's key. */
function tokenFor(userId) {
  const now = Math.floor(Date.now() / 1000)
  const claims = { sub: userId, roles: ['2000'], iss: 'marketplace-auth', aud: 'marketplace' }
  const input = `${b64url({ alg: 'EdDSA', typ: 'JWT' })}.${b64url({ ...claims, iat: now - 1, exp: now + 3600 })}`
  return `${input}.${b64url(sign(null, Buffer.from(input), createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }))))}`
}
const objectId = () => randomBytes(12).toString('hex')

/** Latencies (ms) of reads, split by whether the instance read posts from the database first. */
const reads = { refreshed: [], direct: [] }
const counts = {
  writes: 0,
  ownReads: 0,
  ownMisses: 0,
  hides: 0,
  hiddenShown: 0,
  control: 0,
  controlMisses: 0,
  errors: 0,
}

async function request(
  method,
  path,
  { token, ip, body, base = `http://127.0.0.1:${gatewayPort}` } = {},
) {
  const started = performance.now()
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      'x-forwarded-for': ip,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await response.text()
  const ms = performance.now() - started
  if (response.status >= 400) counts.errors += 1
  if (method === 'GET' && base.endsWith(`:${gatewayPort}`)) {
    const refreshed = Number(response.headers.get('x-read-after-refreshed') ?? 0)
    ;(refreshed > 0 ? reads.refreshed : reads.direct).push(ms)
  }
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

const ids = (answer) => (answer.body?.jobs ?? []).map((job) => job._id)

async function writer(n, until) {
  const token = tokenFor(objectId())
  const ip = `10.1.0.${n + 1}`
  for (let round = 0; Date.now() < until; round += 1) {
    const word = `w${n}r${round}${randomBytes(2).toString('hex')}`
    const created = await request('POST', '/api/jobs', {
      token,
      ip,
      body: { title: `Bench post ${word}`, where: 'Denver CO' },
    })
    if (created.status !== 201) continue
    counts.writes += 1
    const id = created.body._id
    // The control: an instance asked directly, without any position.
    const control = await request('GET', `/api/jobs?search=${word}`, {
      ip,
      base: `http://127.0.0.1:${jobsPorts[round % 2]}`,
    })
    counts.control += 1
    if (!ids(control).includes(id)) counts.controlMisses += 1
    for (const path of ['/api/jobs?page=1', `/api/jobs?search=${word}`]) {
      const answer = await request('GET', path, { token, ip })
      counts.ownReads += 1
      if (!ids(answer).includes(id)) counts.ownMisses += 1
    }
    if (round % 3 === 2) {
      await request('PUT', `/api/jobs/${id}`, { token, ip, body: { displayLocation: false } })
      counts.hides += 1
      // A guest (another address) reading right after must not see the location.
      const guest = await request('GET', `/api/jobs?search=${word}`, {
        ip: `10.2.${n}.${round % 250}`,
      })
      if (guest.body?.jobs?.[0]?.location === 'Denver CO') counts.hiddenShown += 1
    }
  }
}

async function reader(n, until) {
  const ip = `10.3.0.${n + 1}`
  for (let round = 0; Date.now() < until; round += 1) {
    const path =
      round % 3 === 0 ? `/api/jobs?search=bench&limit=10` : `/api/jobs?page=${1 + (round % 5)}`
    await request('GET', path, { ip })
  }
}

const percentile = (values, p) => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const processes = []
const client = new MongoClient(mongoUrl)
try {
  await client.connect()
  const common = {
    MONGO_URL: mongoUrl,
    KAFKA_BROKERS: infra.KAFKA_BROKERS,
    KAFKA_GROUP_PREFIX: `${database}-`,
    JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    SERVICE_NAME: 'jobs',
  }
  const instances = jobsPorts.map((port, i) =>
    startProcess(
      `jobs-${i + 1}`,
      join(repoRoot, 'services', 'jobs'),
      { ...common, INSTANCE_ID: `jobs-${i + 1}` },
      port,
    ),
  )
  processes.push(...instances.map((instance) => instance.child))
  log('starting two jobs instances...')
  await Promise.all(instances.map((instance) => instance.ready()))
  const gateway = startProcess(
    'gateway',
    join(repoRoot, 'services', 'gateway'),
    {
      SERVICE_NAME: 'gateway',
      JOBS_URL: jobsPorts.map((port) => `http://127.0.0.1:${port}`).join(','),
      TRUST_PROXY: '1',
      RATE_LIMIT_MAX: '100000000',
    },
    gatewayPort,
  )
  processes.push(gateway.child)
  await gateway.ready()
  log('seeding 200 posts...')
  const seeder = tokenFor(objectId())
  for (let i = 0; i < 200; i += 1) {
    await request('POST', '/api/jobs', {
      token: seeder,
      ip: '10.9.9.9',
      body: { title: `Bench seed ${i}`, where: 'Boston MA' },
    })
  }
  // Past every seed's caller window: the seeds' positions no longer ride along.
  await new Promise((resolve) => setTimeout(resolve, 16_000))
  reads.refreshed.length = 0
  reads.direct.length = 0
  counts.errors = 0
  const load = loadavg()[0]
  log(`${args.writers} writers and ${args.readers} readers for ${args.duration} s...`)
  const until = Date.now() + durationMs
  await Promise.all([
    ...Array.from({ length: Number(args.writers) }, (_, n) => writer(n, until)),
    ...Array.from({ length: Number(args.readers) }, (_, n) => reader(n, until)),
  ])
  const all = [...reads.refreshed, ...reads.direct]
  const row = (name, values) =>
    `| ${name} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 99).toFixed(1)} |`
  console.log(`
## read-your-writes, two jobs instances behind the gateway (${new Date().toISOString().slice(0, 10)})

node scripts/bench/read-your-writes.mjs --duration ${args.duration} --writers ${args.writers} --readers ${args.readers}
load average at start ${load.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}

| reads through the gateway | count | p50 ms | p99 ms |
| --- | --- | --- | --- |
${row('read posts from the database first', reads.refreshed)}
${row('answered from memory', reads.direct)}
${row('all', all)}

- reads that read posts from the database first: ${((100 * reads.refreshed.length) / all.length).toFixed(1)} % of ${all.length}
- their latency against the others: p50 x${(percentile(reads.refreshed, 50) / percentile(reads.direct, 50)).toFixed(2)}, p99 x${(percentile(reads.refreshed, 99) / percentile(reads.direct, 99)).toFixed(2)}
- writes ${counts.writes}; a writer's own read missing its post: ${counts.ownMisses} of ${counts.ownReads}
- posts made private ${counts.hides}; a guest shown the hidden location right after: ${counts.hiddenShown}
- control, an instance read directly right after a write without any position: missing the post ${counts.controlMisses} of ${counts.control}
- error answers: ${counts.errors}
`)
} finally {
  for (const child of processes) child.kill('SIGTERM')
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await client
    .db(database)
    .dropDatabase()
    .catch(() => undefined)
  await client.close()
}
