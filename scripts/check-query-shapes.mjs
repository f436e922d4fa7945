#!/usr/bin/env node
// Fails when a query the services sent during the test suites is served by no
// index they declare (docs/scale.md "Every query has its index"). The package suites record
// the shapes (QUERY_SHAPES_DIR, packages/service-kit/src/testing/query-shapes.ts); this
// matches each with the indexes of the database it was sent to. Usage:
//   node scripts/check-query-shapes.mjs <dir>
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const {
  isServed,
  isWholeCollectionRead,
} = require('../packages/service-kit/dist/testing/query-shapes.js')

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node scripts/check-query-shapes.mjs <dir>')
  process.exit(2)
}
let files = []
try {
  files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'))
} catch {
  // no directory: nothing recorded
}
if (files.length === 0) {
  console.error(
    `[query-shapes] nothing recorded in ${dir}: the suites did not run with QUERY_SHAPES_DIR`,
  )
  process.exit(1)
}

const describe = (q) =>
  `${q.command} ${q.collection} filter [${q.filter.join(', ')}]${q.sort.length ? ` sort [${q.sort.join(', ')}]` : ''}`

const unserved = new Map()
const wholeReads = new Map()
let checked = 0
for (const file of files) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (!line.trim()) continue
    const record = JSON.parse(line)
    const service = record.service
    for (const query of record.shapes) {
      checked += 1
      const id = `${service}: ${describe(query)}`
      if (isWholeCollectionRead(query)) wholeReads.set(id, record.testFile)
      else if (!isServed(query, record.indexes[query.collection] ?? [])) {
        unserved.set(id, relative(process.cwd(), record.testFile))
      }
    }
  }
}

console.log(
  `[query-shapes] ${checked} recorded queries from ${files.length} test databases' records`,
)
if (wholeReads.size > 0) {
  console.log(
    `[query-shapes] whole-collection reads (no filter, no sort: a read model's load, a sweep of every document):`,
  )
  for (const id of [...wholeReads.keys()].sort()) console.log(`  ${id}`)
}
if (unserved.size > 0) {
  console.log(`[query-shapes] FAIL ${unserved.size} query shapes no declared index serves:`)
  for (const [id, testFile] of [...unserved.entries()].sort())
    console.log(`  ${id}   (seen in ${testFile})`)
  process.exit(1)
}
console.log('[query-shapes] every filtered or sorted query is served by _id or a declared index')
