#!/usr/bin/env node
// People benchmark: people feed page 1, page 50 and search at 50 connections,
// direct to the people service, through the gateway and through the floor (minimal-proxy.mjs),
// in one run, over 100,000 generated workers in the real FerretDB of infra/local. Same format and targets as posts-feed.mjs.
//
//   bash infra/local/infra.sh up && pnpm turbo run build --filter=@marketplace/people... --filter=@marketplace/gateway...
//   node scripts/bench/people-feed.mjs [--workers 100000] [--duration 10] [--connections 50] [--keep]
//     [--pin] [--log-level warn|info] [--log-dir DIR] [--rounds 1] [--baseline-gateway DIR]   (feed-bench-lib.mjs)
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot as root } from './infra-env.mjs'
import { feedBenchOptions, log, runFeedBenchmark } from './feed-bench-lib.mjs'
import { generateWorkers } from './worker-generator.mjs'

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

// ---- data: believable workers (worker-generator.mjs, the same generator the snapshot bench uses) ----
async function generate(db) {
  const { workerCategory, workerSearchWords } = requireFromPeople('./dist/profiles/worker-fields.js')
  const profiles = db.collection('profiles')
  const started = Date.now()
  let batch = []
  let done = 0
  for (const profile of generateWorkers({ count: WORKERS, ObjectId, workerCategory, workerSearchWords })) {
    batch.push(profile)
    done += 1
    if (batch.length < 1000 && done < WORKERS) continue
    await profiles.insertMany(batch, { ordered: false })
    batch = []
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
