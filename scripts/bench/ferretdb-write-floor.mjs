#!/usr/bin/env node
// The local MongoDB-protocol server's write floor: how many single-document writes by `_id`
// one database takes per second, one at a time and 8 at once (FerretDB on SQLite behind the
// write serializer of infra/local: one writer per database). A use case that needs N writes
// cannot go faster than floor / N on this machine, whatever the service does.
//
//   bash infra/local/infra.sh up
//   node scripts/bench/ferretdb-write-floor.mjs [--writes 2000]
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { randomBytes } from 'node:crypto'
import { infraEnv, repoRoot } from './infra-env.mjs'

const { MongoClient } = createRequire(join(repoRoot, 'packages', 'service-kit', 'package.json'))(
  'mongodb',
)
const { values } = parseArgs({ options: { writes: { type: 'string', default: '2000' } } })
const WRITES = Number(values.writes)
const infra = infraEnv()
const name = `bench_floor_${randomBytes(4).toString('hex')}`
const client = await new MongoClient(
  `${infra.MONGO_URL_BASE}/${name}?${infra.MONGO_URL_OPTIONS}`,
).connect()
const docs = client.db().collection('docs')

async function measure(label, concurrency) {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < WRITES) {
        const i = next++
        await docs.updateOne(
          { _id: `d${i % 50}` },
          { $inc: { n: 1 }, $set: { at: new Date() } },
          { upsert: true },
        )
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  console.log(
    `| ${label} | ${WRITES} | ${(WRITES / seconds).toFixed(0)} writes/s | ${((seconds * 1000) / WRITES).toFixed(2)} ms each |`,
  )
}

console.log('| writes | count | rate | per write |\n|---|---|---|---|')
await measure('one at a time', 1)
await measure('8 at once', 8)
await client.db().dropDatabase()
await client.close()
