#!/usr/bin/env node
// Resident memory per item held (docs/capacity.md): jobs keeps every live post in its feed
// index, people every worker profile in its own (docs/posts.md, docs/people.md), so their pods'
// memory grows with the data, not with the traffic. For each, starts the built service (dist)
// on an empty database and on one holding --items generated items, waits until it is ready
// (the index loaded) and has settled, and reads its resident memory (VmRSS, /proc). The
// difference divided by the items is the memory one item costs in every replica.
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/jobs... --filter=@marketplace/people...
//   node scripts/bench/memory-per-item.mjs [--items 20000] [--services jobs,people] [--settle 5]
//
// Light on purpose (no load generator): the databases are left behind under bench_memory_*
// names only with --keep. MARKETPLACE_DATA names the infra directory when it is not .data.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'
import { log, seededRandom, startProcess } from './feed-bench-lib.mjs'

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '20000' },
    services: { type: 'string', default: 'jobs,people' },
    settle: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
})
const ITEMS = Number(args.items)

function infraEnv() {
  const file = join(process.env.MARKETPLACE_DATA ?? join(repoRoot, '.data'), 'infra.env')
  if (!existsSync(file))
    throw new Error(`Run "bash infra/local/infra.sh up" first (${file} is missing)`)
  const env = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = line.match(/^([A-Z0-9_]+)=(.*)$/)
    if (match) env[match[1]] = match[2].replace(/^'(.*)'$/, '$1')
  }
  return env
}

const rssMb = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- the items, as the services store them (the feed benchmarks' shapes, smaller vocabulary)
const PLACES = ['Remote', 'New York NY', 'Chicago IL', 'Boston MA', 'Austin TX', 'Denver CO']
const PAYMENTS = ['Zelle', 'Cash App', 'Venmo', 'Cash', 'PayPal']

const SERVICES = {
  jobs: {
    port: 4913,
    collection: 'posts',
    item(service, next, index, ObjectId) {
      const { derivedFields } = service('./dist/posts/post-input.js')
      const titles = [
        'Help moving a sofa',
        'Deep clean my apartment',
        'Fix a leaking faucet',
        'Walk my dog',
      ]
      const fields = {
        title: `${titles[index % titles.length]} #${index}`,
        infos: 'Two hours at most, tools provided.',
        expirationDate: null,
      }
      const at = new Date(Date.now() - (ITEMS - index) * 60_000)
      return {
        _id: new ObjectId().toHexString(),
        userID: new ObjectId().toHexString(),
        location: PLACES[Math.floor(next() * PLACES.length)],
        jobStartEnd: 'This weekend',
        salary: `$${20 + Math.floor(next() * 80)}`,
        paymentType: [PAYMENTS[Math.floor(next() * PAYMENTS.length)]],
        contact: 'Email',
        displayLocation: next() > 0.1,
        displayContact: next() > 0.2,
        jobPicture: null,
        isOnline: true,
        takenDown: false,
        createdAt: at,
        updatedAt: at,
        ...fields,
        ...derivedFields(fields),
      }
    },
  },
  people: {
    port: 4912,
    collection: 'profiles',
    item(service, next, index, ObjectId) {
      const { workerCategory, workerSearchWords } = service('./dist/profiles/worker-fields.js')
      const names = {
        firstName: ['Ana', 'Ben', 'Chloe', 'David'][index % 4],
        lastName: `Walsh${index % 97}`,
      }
      const [title, skills] = [
        ['House cleaner', ['Cleaning', 'Laundry']],
        ['Handyman', ['Plumbing', 'Painting']],
      ][index % 2]
      const worker = {
        title,
        skills,
        availability: 'Weekends',
        paymentType: PAYMENTS[Math.floor(next() * PAYMENTS.length)],
        location: PLACES[Math.floor(next() * PLACES.length)],
        infos: 'Reliable and on time.',
        contacts: [{ value: `worker${index}@example.com`, visibility: 'public' }],
        profilePicture: null,
        isOnline: true,
      }
      const at = new Date(Date.now() - (ITEMS - index) * 60_000)
      return {
        _id: new ObjectId().toHexString(),
        ...names,
        email: `worker${index}@example.com`,
        phoneNumber: '(212) 555-0100',
        dateOfBirth: '1980-05-15',
        interest: 'Both',
        emailPreferences: false,
        isWorker: true,
        worker: {
          ...worker,
          category: workerCategory(title, skills),
          searchWords: workerSearchWords(names, worker),
        },
        createdAt: at,
        updatedAt: at,
        registeredAt: at,
      }
    },
  },
}

async function residentWith(name, items, infra, publicKey) {
  const spec = SERVICES[name]
  const dir = join(repoRoot, 'services', name)
  const service = createRequire(join(dir, 'package.json'))
  const { MongoClient, ObjectId } = service('mongodb')
  const database = `bench_memory_${name}_${randomBytes(4).toString('hex')}`
  const mongoUrl = `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`
  const client = new MongoClient(mongoUrl)
  await client.connect()
  const db = client.db(database)
  let child
  try {
    const next = seededRandom(11)
    for (let done = 0; done < items;) {
      const batch = []
      for (let i = 0; i < 1000 && done < items; i += 1, done += 1)
        batch.push(spec.item(service, next, done, ObjectId))
      await db.collection(spec.collection).insertMany(batch, { ordered: false })
    }
    const started = startProcess(
      name,
      dir,
      {
        SERVICE_NAME: name,
        MONGO_URL: mongoUrl,
        KAFKA_BROKERS: infra.KAFKA_BROKERS,
        KAFKA_GROUP_PREFIX: `${database}-`,
        JWT_PUBLIC_KEY: publicKey,
      },
      spec.port,
    )
    child = started.child
    await started.ready()
    await sleep(Number(args.settle) * 1000) // let start-up garbage be collected
    return rssMb(child.pid)
  } finally {
    child?.kill('SIGTERM')
    if (!args.keep) await db.dropDatabase().catch(() => {})
    await client.close()
  }
}

const infra = infraEnv()
const publicKey = generateKeyPairSync('ed25519')
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString()
const rows = []
for (const name of args.services.split(',')) {
  log(`${name}: empty database...`)
  const empty = await residentWith(name, 0, infra, publicKey)
  log(`${name}: ${ITEMS} items...`)
  const full = await residentWith(name, ITEMS, infra, publicKey)
  rows.push({ name, empty, full, perThousand: ((full - empty) / ITEMS) * 1000 })
  log(`${name}: ${empty.toFixed(0)} MB empty, ${full.toFixed(0)} MB with ${ITEMS} items`)
}
console.log(
  `\n| service | RSS, empty | RSS with ${ITEMS.toLocaleString('en')} items | per 1,000 items |`,
)
console.log('| --- | --- | --- | --- |')
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.empty.toFixed(0)} MB | ${row.full.toFixed(0)} MB | ${row.perThousand.toFixed(2)} MB |`,
  )
process.exit(0)
