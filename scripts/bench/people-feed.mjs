#!/usr/bin/env node
// People benchmark (issue 5): people feed page 1, page 50 and search at 50 connections,
// direct to the people service, through the gateway and through the floor (minimal-proxy.mjs),
// in one run, over 100,000 generated workers in the real FerretDB of infra/local. Same format and targets as posts-feed.mjs.
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/people... --filter=@marketplace/gateway...
//   node scripts/bench/people-feed.mjs [--workers 100000] [--duration 10] [--connections 50] [--keep]
//     [--pin] [--log-level warn|info] [--log-dir DIR] [--rounds 1]   (feed-bench-lib.mjs)
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot as root } from './infra-env.mjs'
import { feedBenchOptions, log, runFeedBenchmark, seededRandom } from './feed-bench-lib.mjs'

const peopleDir = join(root, 'services', 'people')
const requireFromPeople = createRequire(join(peopleDir, 'package.json'))
const { MongoClient, ObjectId } = requireFromPeople('mongodb')

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: '100000' },
    ...feedBenchOptions,
  },
})
const WORKERS = Number(args.workers)

// ---- data: believable workers from a small vocabulary, deterministic (seeded) ----
const FIRST = ['Ana', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Grace', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah', 'Olivia', 'Paul', 'Rosa', 'Sam', 'Tara', 'Victor']
const LAST = ['Adams', 'Baker', 'Clark', 'Diaz', 'Evans', 'Garcia', 'Hughes', 'Ito', 'Jensen', 'Khan', 'Lopez', 'Moreau', 'Nguyen', 'Okafor', 'Patel', 'Quinn', 'Rossi', 'Silva', 'Tanaka', 'Walsh']
const TITLES = [
  ['House mover', ['Lifting', 'Packing', 'Driving']], ['Cleaner', ['Deep cleaning', 'Laundry']],
  ['Handyman', ['Plumbing', 'Painting', 'Furniture assembly']], ['IT helper', ['Wifi', 'Laptops', 'Printers']],
  ['Math tutor', ['Algebra', 'Geometry']], ['Dog walker', ['Dogs', 'Cats']], ['Courier', ['Bike', 'Parcels']],
  ['Event staff', ['Bartending', 'Photography']], ['Gardener', ['Lawn', 'Hedges']], ['Assistant', ['Errands', 'Queueing']],
]
const LOCATIONS = ['Remote', 'New York NY', 'Los Angeles CA', 'Chicago IL', 'San Francisco CA', 'Boston MA', 'Seattle WA', 'Austin TX', 'Atlanta GA', 'Miami FL', 'Denver CO']
const PAYMENTS = ['Cash', 'Zelle', 'Venmo or cash', 'PayPal', 'Bank transfer', 'Cash App']

async function generate(db) {
  const { workerCategory, workerSearchWords } = requireFromPeople('./dist/profiles/worker-fields.js')
  const next = seededRandom(7)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const profiles = db.collection('profiles')
  const start = Date.now() - WORKERS * 60_000
  const started = Date.now()
  for (let done = 0; done < WORKERS; ) {
    const batch = []
    for (let i = 0; i < 1000 && done < WORKERS; i += 1, done += 1) {
      const names = { firstName: pick(FIRST), lastName: `${pick(LAST)}${done % 7 === 0 ? '-' + pick(LAST) : ''}` }
      const [title, skills] = pick(TITLES)
      const at = new Date(start + done * 60_000)
      const worker = {
        title,
        skills,
        availability: 'Weekends',
        paymentType: pick(PAYMENTS),
        location: pick(LOCATIONS),
        infos: 'Reliable and on time.',
        contacts: [{ value: `worker${done}@example.com`, visibility: next() > 0.5 ? 'public' : 'hidden' }],
        profilePicture: null,
        isOnline: next() > 0.05,
      }
      batch.push({
        _id: new ObjectId().toHexString(),
        ...names,
        email: `worker${done}@example.com`,
        phoneNumber: '(212) 555-0100',
        dateOfBirth: `${1960 + Math.floor(next() * 40)}-0${1 + Math.floor(next() * 9)}-15`,
        interest: 'Both',
        emailPreferences: false,
        isWorker: true,
        worker: { ...worker, category: workerCategory(title, skills), searchWords: workerSearchWords(names, worker) },
        createdAt: at,
        updatedAt: at,
        registeredAt: at,
      })
    }
    await profiles.insertMany(batch, { ordered: false })
    if (done % 20_000 === 0 || done === WORKERS) log(`generated ${done}/${WORKERS} workers (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  }
}

/** The same page-1 feed query asked of the database, for comparison (one run). */
async function timeDatabaseQuery(db) {
  const started = performance.now()
  await db.collection('profiles').find({ isWorker: true, 'worker.isOnline': true, 'worker.category': 'Moving' }).sort({ createdAt: -1, _id: -1 }).limit(12).toArray()
  return performance.now() - started
}

runFeedBenchmark({
  serviceName: 'people',
  port: 4902,
  MongoClient,
  generate,
  timeDatabaseQuery,
  firstPagePath: '/api/people?page=1',
  scenarios: [
    ['feed page 1', '/api/people?page=1&sort=desc'],
    ['feed page 50', '/api/people?page=50&sort=desc'],
    ['search', '/api/people?search=mov&limit=10'],
  ],
  args,
}).catch((error) => {
  console.error(error)
  process.exit(1)
})
