#!/usr/bin/env node
// Posts benchmark (issue 4): feed page 1, feed page 50 and search at 50 connections, direct
// to the jobs service and through the gateway, in one run, over 100,000 generated posts in
// the real FerretDB of infra/local. Both services run as their own processes (built dist).
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/jobs... --filter=@marketplace/gateway...
//   node scripts/bench/posts-feed.mjs [--posts 100000] [--duration 10] [--connections 50] [--keep]
//
// Absolute times drift on a shared machine, so the results are also given as ratios taken
// in the same run: gateway ÷ direct throughput, and page 50 or search ÷ page 1 latency.
// It also times the same feed query asked of the database, which is why the feed is served
// from the in-process index (docs/posts.md).
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { infraEnv, repoRoot as root } from './infra-env.mjs'

const jobsDir = join(root, 'services', 'jobs')
const gatewayDir = join(root, 'services', 'gateway')
const requireFromJobs = createRequire(join(jobsDir, 'package.json'))
const autocannon = createRequire(join(root, 'package.json'))('autocannon')
const { MongoClient, ObjectId } = requireFromJobs('mongodb')

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
  },
})
const POSTS = Number(args.posts)
const log = (message) => console.log(`[bench] ${message}`)

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

function random(seed) {
  let state = seed >>> 0
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}

async function generate(db) {
  const { derivedFields } = requireFromJobs('./dist/posts/post-input.js')
  const next = random(42)
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

function startProcess(name, dir, env, port) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: dir,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return {
    child,
    async ready(timeoutMs = 300_000) {
      const until = Date.now() + timeoutMs
      while (Date.now() < until) {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`)
        try {
          const response = await fetch(`http://127.0.0.1:${port}/readyz`)
          if (response.ok) return
        } catch {}
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      throw new Error(`${name} not ready`)
    },
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are fields 14 and 15 of stat; here 0-based after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // USER_HZ is 100 on Linux
}

function run(url, duration = Number(args.duration)) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: Number(args.connections), duration, pipelining: 1 },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
  })
}

async function main() {
  const infra = infraEnv()
  const database = `bench_jobs_${randomBytes(4).toString('hex')}`
  const mongoUrl = `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`
  const client = new MongoClient(mongoUrl)
  await client.connect()
  const db = client.db(database)
  const processes = []
  try {
    log(`generating ${POSTS} posts into ${database} (FerretDB)...`)
    await generate(db)
    log('timing the page-1 query asked of the database instead...')
    const databaseMs = await timeDatabaseQuery(db)
    log(`database: ${databaseMs.toFixed(0)} ms for one filtered, sorted page of 12`)

    const { publicKey } = generateKeyPairSync('ed25519')
    const jobs = startProcess('jobs', jobsDir, {
      SERVICE_NAME: 'jobs',
      MONGO_URL: mongoUrl,
      KAFKA_BROKERS: infra.KAFKA_BROKERS,
      KAFKA_GROUP_PREFIX: `${database}-`,
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }, 4903)
    processes.push(jobs.child)
    log('starting the jobs service (it loads the feed index from the database)...')
    let started = Date.now()
    await jobs.ready()
    log(`jobs ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const gateway = startProcess('gateway', gatewayDir, {
      SERVICE_NAME: 'gateway',
      JOBS_URL: 'http://127.0.0.1:4903',
      // The limiter still runs on every request; only its budget is out of the way.
      RATE_LIMIT_MAX: '100000000',
    }, 4980)
    processes.push(gateway.child)
    await gateway.ready()

    const firstPage = await (await fetch('http://127.0.0.1:4903/api/jobs?page=1')).json()
    log(`feed: ${firstPage.pagination.total} live posts, ${firstPage.pagination.totalPages} pages`)
    const scenarios = [
      ['feed page 1', '/api/jobs?page=1&sort=desc'],
      ['feed page 50', '/api/jobs?page=50&sort=desc'],
      ['search', '/api/jobs?search=clean&limit=10'],
    ]
    const results = []
    for (const [name, path] of scenarios) {
      for (const [via, base] of [['direct', 'http://127.0.0.1:4903'], ['gateway', 'http://127.0.0.1:4980']]) {
        await run(`${base}${path}`, 2) // warm-up: JIT, connection pools
        log(`${name} via ${via}: ${args.connections} connections, ${args.duration} s...`)
        const before = { jobs: cpuMs(jobs.child.pid), gateway: cpuMs(gateway.child.pid) }
        const result = await run(`${base}${path}`)
        const served = result.requests.total
        results.push({
          jobsCpuMsPerRequest: (cpuMs(jobs.child.pid) - before.jobs) / served,
          gatewayCpuMsPerRequest: (cpuMs(gateway.child.pid) - before.gateway) / served,
          scenario: name,
          via,
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.non2xx,
        })
      }
    }
    console.log('\n| scenario | via | req/s | p50 ms | p99 ms | errors | jobs CPU ms/req | gateway CPU ms/req |\n|---|---|---|---|---|---|---|---|')
    for (const r of results) {
      console.log(
        `| ${r.scenario} | ${r.via} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.jobsCpuMsPerRequest.toFixed(3)} | ${r.gatewayCpuMsPerRequest.toFixed(3)} |`,
      )
    }
    const find = (scenario, via) => results.find((r) => r.scenario === scenario && r.via === via)
    console.log('\n| ratio | value |\n|---|---|')
    for (const [name] of scenarios) {
      console.log(`| ${name}: gateway ÷ direct req/s | ${(find(name, 'gateway').requestsPerSecond / find(name, 'direct').requestsPerSecond).toFixed(2)} |`)
    }
    for (const name of ['feed page 50', 'search']) {
      console.log(`| ${name} ÷ page 1, direct p99 | ${(find(name, 'direct').p99 / Math.max(1, find('feed page 1', 'direct').p99)).toFixed(2)} |`)
    }
    for (const [name] of scenarios) {
      const viaGateway = find(name, 'gateway')
      console.log(`| ${name}: gateway CPU ÷ jobs CPU per proxied request | ${(viaGateway.gatewayCpuMsPerRequest / viaGateway.jobsCpuMsPerRequest).toFixed(2)} |`)
    }
    console.log(`| database page-1 query ÷ direct page-1 p50 | ${(databaseMs / Math.max(1, find('feed page 1', 'direct').p50)).toFixed(0)} |`)
    const worstP99 = Math.max(...results.filter((r) => r.via === 'direct').map((r) => r.p99))
    console.log(`\nTarget p99 ≤ 50 ms direct: ${worstP99 <= 50 ? 'met' : 'NOT met'} (worst ${worstP99} ms).`)
    const worstRatio = Math.min(...scenarios.map(([name]) => find(name, 'gateway').requestsPerSecond / find(name, 'direct').requestsPerSecond))
    console.log(`Target gateway ≥ 70 % of direct: ${worstRatio >= 0.7 ? 'met' : 'NOT met'} (worst ${(worstRatio * 100).toFixed(0)} %).`)
  } finally {
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    if (!args.keep) await db.dropDatabase()
    await client.close()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
