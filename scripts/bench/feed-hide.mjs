// What hiding a reader's blocked people costs a feed page (docs/blocking.md "Feeds"): the
// in-memory ColumnarFeed of read-models, built (pnpm turbo run build --filter=@marketplace/read-models),
// with N rows of M owners. Times one page of 20, newest first, without a filter and with one,
// for a reader who hides nobody (the feed's own path), one who hides a few owners' rows (the
// matching list is walked once, comparing numbers) and one who hides a few rows by id (the
// people feed: a binary search each); and a search. Prints medians in ms.
// Usage: node scripts/bench/feed-hide.mjs [--rows 200000] [--owners 20000] [--hidden 5]
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    owners: { type: 'string', default: '20000' },
    hidden: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '200' },
  },
})
const rows = Number(values.rows)
const owners = Number(values.owners)
const rounds = Number(values.rounds)
const require = createRequire(join(repoRoot, 'packages', 'read-models', 'package.json'))
const { ColumnarFeed } = require('./dist/feed/columnar-feed.js')

const schema = {
  shared: ['owner', 'category'],
  numbers: [],
  filterValues: (row) => [['category', row.shared[1]]],
  searchWords: (row) => row.text.split(' '),
  version: 'bench-hide-1',
}
const words = ['paint', 'fence', 'garden', 'move', 'piano', 'clean', 'walk', 'dog']
const feed = new ColumnarFeed(schema)
const t0 = Date.UTC(2026, 0, 1)
feed.load(
  (function* () {
    for (let n = 0; n < rows; n += 1) {
      yield {
        id: n.toString(16).padStart(24, '0'),
        createdAt: t0 + n * 1000,
        expiresAt: null,
        shared: [`owner-${n % owners}`, `cat-${n % 12}`],
        numbers: [],
        text: `${words[n % words.length]} ${words[(n * 7) % words.length]}`,
      }
    }
  })(),
)
const hiddenOwners = new Set(
  Array.from({ length: Number(values.hidden) }, (_, i) => `owner-${i * 97}`),
)
const hide = { shared: { column: 0, values: hiddenOwners } }
const hiddenIds = {
  ids: Array.from({ length: Number(values.hidden) }, (_, i) =>
    (i * 997).toString(16).padStart(24, '0'),
  ),
}

function median(run) {
  const times = []
  for (let i = 0; i < rounds; i += 1) {
    const start = process.hrtime.bigint()
    run()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)].toFixed(3)
}

const page = (filters, hidden) => () =>
  feed.page({ filters, page: 1, pageSize: 20, sort: 'desc', hide: hidden })
console.log(
  JSON.stringify(
    {
      rows,
      owners,
      hiddenOwners: hiddenOwners.size,
      medianMs: {
        pageNobodyHidden: median(page({}, undefined)),
        pageHidingOwners: median(page({}, hide)),
        pageHidingIds: median(page({}, hiddenIds)),
        filteredPageNobodyHidden: median(page({ category: 'cat-3' }, undefined)),
        filteredPageHidingOwners: median(page({ category: 'cat-3' }, hide)),
        searchNobodyHidden: median(() => feed.search(['paint'], 10)),
        searchHidingOwners: median(() => feed.search(['paint'], 10, hide)),
      },
      loadAverage: loadavg().map((value) => value.toFixed(2)),
    },
    null,
    2,
  ),
)
