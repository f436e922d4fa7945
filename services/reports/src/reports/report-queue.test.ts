import { MongoClient, ObjectId, type Db } from 'mongodb'
import { testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { ADMIN_ROLES, startReportsTestApp } from '../test/reports-test-app'
import { REPORTS_COLLECTION, type ReportDocument } from './report-document'
import { REPORT_QUEUE_COLLECTION, createReportQueue } from './report-queue-repository'

// issue 19 §2: the open moderation queue read from buckets by _id, on the real FerretDB. Each
// answer is checked against the query it replaces, over the reports themselves.

const HOUR_MS = 60 * 60 * 1000
const T0 = Date.UTC(2026, 10, 1)

let client: MongoClient
let db: Db
const noMark = async () => {}

beforeAll(async () => {
  client = await new MongoClient(testMongoUrl('reports_queue')).connect()
  db = client.db()
})
afterAll(async () => {
  await db?.dropDatabase()
  await client?.close()
})

function report(at: number, fields: Partial<ReportDocument> = {}): ReportDocument {
  return {
    _id: new ObjectId().toHexString(),
    reporterId: new ObjectId().toHexString(),
    targetType: 'post',
    targetId: new ObjectId().toHexString(),
    targetOwnerId: new ObjectId().toHexString(),
    reason: 'scam',
    description: '',
    status: 'open',
    createdAt: new Date(T0 + at * 1000),
    closedAt: null,
    closedBy: null,
    action: null,
    outbox: [],
    ...fields,
  }
}

/** A queue of its own (its own collection's documents), with buckets of `bucketSize`. */
function queueIn(name: string, bucketSize = 3) {
  const scoped = client.db(`${db.databaseName}_${name}`)
  const reports = scoped.collection<ReportDocument>(REPORTS_COLLECTION)
  const queue = createReportQueue(scoped, { bucketSize })
  const load = (ids: string[]) => Promise.all(ids.map((_id) => reports.findOne({ _id })))
  /** The query the queue replaces: every open report, oldest first. */
  const truth = async () =>
    (await reports.find({ status: 'open' }).sort({ createdAt: 1, _id: 1 }).toArray()).map(
      (r) => r._id,
    )
  /** Every page of the queue, joined, and each page's total. */
  async function pages(pageSize: number) {
    const ids: string[] = []
    const totals = new Set<number>()
    for (let page = 1; ; page += 1) {
      const answer = await queue.page(page, pageSize, load)
      if (!answer) throw new Error('queue not filled')
      totals.add(answer.total)
      expect(answer.items.length).toBeLessThanOrEqual(pageSize)
      ids.push(...answer.items.map((r) => r._id))
      if (answer.items.length < pageSize) break
    }
    return { ids, totals: [...totals] }
  }
  /** Stored open by this version: joined first, as reports-repository.ts does. */
  async function open(...docs: ReportDocument[]) {
    for (const doc of docs) {
      await queue.join([doc])
      await reports.insertOne({ ...doc, queued: true })
    }
  }
  async function close(doc: ReportDocument) {
    await reports.updateOne({ _id: doc._id }, { $set: { status: 'closed' } })
    await queue.leave([doc])
  }
  return { scoped, reports, queue, load, truth, pages, open, close }
}

it('answers every page, the total, the overdue count and the counts per target as the reports do', async () => {
  const q = queueIn('pages')
  await q.queue.fill(async function* () {}, noMark) // a new database: nothing stored before
  const shared = new ObjectId().toHexString()
  const docs = Array.from({ length: 11 }, (_, i) =>
    report(i * 60, i % 4 === 0 ? { targetId: shared } : {}),
  )
  await q.open(...docs)
  // Message reports are filed elsewhere and join late: out of filing order, and two at one instant.
  const late = [report(90), report(90), report(-30)]
  await q.open(...late)
  for (const closed of [docs[0]!, docs[5]!, docs[6]!, docs[7]!, late[1]!]) await q.close(closed)

  const truth = await q.truth()
  for (const pageSize of [1, 2, 5, 20]) {
    const { ids, totals } = await q.pages(pageSize)
    expect(ids).toEqual(truth)
    expect(totals).toEqual([truth.length])
  }
  for (const seconds of [0, 5 * 60, 9 * 60]) {
    const before = new Date(T0 + seconds * 1000)
    expect(await q.queue.countOverdue(before)).toBe(
      await q.reports.countDocuments({ status: 'open', createdAt: { $lt: before } }),
    )
  }
  const counts = await q.queue.openCounts([{ targetType: 'post', targetId: shared }, docs[1]!])
  expect(counts?.get(`post:${shared}`)).toBe(
    await q.reports.countDocuments({ status: 'open', targetId: shared }),
  )
  expect(counts?.get(`post:${docs[1]!.targetId}`)).toBe(1)
})

it('keeps every report of twenty joined at once, each once, in filing order', async () => {
  const q = queueIn('parallel')
  await q.queue.fill(async function* () {}, noMark)
  const docs = Array.from({ length: 20 }, (_, i) => report(i))
  await Promise.all(docs.map((doc) => q.open(doc)))
  const { ids, totals } = await q.pages(7)
  expect(ids).toEqual(docs.map((d) => d._id))
  expect(totals).toEqual([20])
})

it('drops an entry left by a crash (a report closed without leaving, one never stored) and keeps pages full', async () => {
  const q = queueIn('leftovers')
  await q.queue.fill(async function* () {}, noMark)
  const docs = Array.from({ length: 6 }, (_, i) => report(i))
  await q.open(...docs)
  // Closed, and the process stopped before the report left the queue.
  await q.reports.updateOne({ _id: docs[1]!._id }, { $set: { status: 'closed' } })
  // Joined, and the process stopped before the report was stored; a minute later.
  const crashed = report(2.5)
  const aMinuteAgo = new Date(Date.now() - 2 * 60 * 1000)
  await createReportQueue(q.scoped, { bucketSize: 3, now: () => aMinuteAgo }).join([crashed])

  const first = await q.queue.page(1, 2, q.load)
  expect(first?.items.map((r) => r._id)).toEqual([docs[0]!._id, docs[2]!._id])
  const { ids, totals } = await q.pages(2)
  expect(ids).toEqual(await q.truth())
  // The leftovers are gone from the buckets and the counts.
  expect((await q.queue.page(1, 2, q.load))?.total).toBe(5)
  expect(totals.at(-1)).toBe(5)

  // An entry just joined whose report is not stored yet is an insert under way: skipped, kept.
  const underWay = report(3.5)
  await q.queue.join([underWay])
  for (let read = 1; read <= 2; read += 1) {
    const answer = await q.queue.page(1, 10, q.load)
    expect(answer?.items.map((r) => r._id)).toEqual(await q.truth())
    expect(answer?.total).toBe(6)
  }
})

it('fills once from reports stored before the queue, oldest first, whatever joins meanwhile', async () => {
  const q = queueIn('fill')
  const old = Array.from({ length: 7 }, (_, i) => report(i * 10))
  await q.reports.insertMany([...old, report(35, { status: 'closed' })])
  // Before the fill, the queue does not answer (the caller asks the reports).
  expect(await q.queue.page(1, 5, q.load)).toBeNull()
  expect(await q.queue.countOverdue(new Date())).toBeNull()
  // A report opened by this version while the fill has not run.
  const live = report(25)
  await q.open(live)
  const openBefore = () =>
    (async function* () {
      const found = await q.reports
        .find({ status: 'open' })
        .sort({ createdAt: 1, _id: 1 })
        .toArray()
      for (const doc of found) if (!doc.queued) yield doc
    })()
  // Two instances start at once: one fills, the other finds the lease taken.
  const markJoined = async (ids: string[]) => {
    await q.reports.updateMany({ _id: { $in: ids } }, { $set: { queued: true } })
  }
  const filled = await Promise.all([
    q.queue.fill(openBefore, markJoined),
    q.queue.fill(openBefore, markJoined),
  ])
  expect(filled.sort()).toEqual([0, 7])
  expect(await q.queue.fill(openBefore, markJoined)).toBe(0)
  expect(await q.reports.countDocuments({ queued: { $ne: true } })).toBe(1) // the closed one
  const { ids, totals } = await q.pages(3)
  expect(ids).toEqual(await q.truth())
  expect(totals).toEqual([8])
})

it('resumes a fill stopped half-way (the service closing) without joining a report twice', async () => {
  const q = queueIn('resume')
  const old = Array.from({ length: 7 }, (_, i) => report(i))
  await q.reports.insertMany(old)
  const notJoined = () =>
    (async function* () {
      const found = await q.reports
        .find({ status: 'open' })
        .sort({ createdAt: 1, _id: 1 })
        .toArray()
      for (const doc of found) if (!doc.queued) yield doc
    })()
  const markJoined = async (ids: string[]) => {
    await q.reports.updateMany({ _id: { $in: ids } }, { $set: { queued: true } })
  }
  let seen = 0
  expect(await q.queue.fill(notJoined, markJoined, () => ++seen > 4)).toBe(3)
  expect(await q.queue.page(1, 5, q.load)).toBeNull()
  // The next start takes the freed lease and joins the rest.
  expect(await q.queue.fill(notJoined, markJoined)).toBe(4)
  const { ids, totals } = await q.pages(2)
  expect(ids).toEqual(old.map((r) => r._id))
  expect(totals).toEqual([7])
})

it('serves the moderation queue of reports stored before it existed, through the route', async () => {
  const url = `${testMongoUrl('reports_queue_old')}&monitorCommands=true`
  const seed = await new MongoClient(url).connect()
  const old = Array.from({ length: 5 }, (_, i) =>
    report(i, { createdAt: new Date(Date.now() - (30 - i) * HOUR_MS) }),
  )
  await seed.db().collection<ReportDocument>(REPORTS_COLLECTION).insertMany(old)
  await seed.close()
  const app = await startReportsTestApp('reports_queue_old', {
    MONGO_URL: url,
    QUEUE_PAGE_SIZE: '2',
  })
  try {
    const admin = app.clientFor(app.newUserId(), undefined, ADMIN_ROLES)
    const seen: string[] = []
    for (let page = 1; page <= 3; page += 1) {
      const answer = await admin.get(`/api/reports?status=open&page=${page}`)
      expect(answer.status).toBe(200)
      expect(answer.body.pagination).toEqual({ page, totalPages: 3, total: 5 })
      expect(answer.body.overdue).toBe(5)
      seen.push(...answer.body.reports.map((r: { _id: string }) => r._id))
    }
    expect(seen).toEqual(old.map((r) => r._id))
    // The fill ran in the background at start and the queue answers from now on.
    const head = () =>
      app.db
        .collection<{ _id: string; filledAt?: Date }>(REPORT_QUEUE_COLLECTION)
        .findOne({ _id: 'head' })
    await waitFor(async () => (await head())?.filledAt instanceof Date, { what: 'the fill' })
    // Closing one through the route takes it out of the queue.
    expect((await admin.patch(`/api/reports/${old[0]!._id}`, { action: 'dismiss' })).status).toBe(
      200,
    )
    const after = await admin.get('/api/reports?status=open&page=1')
    expect(after.body.pagination.total).toBe(4)
    expect(after.body.reports.map((r: { _id: string }) => r._id)).toEqual([
      old[1]!._id,
      old[2]!._id,
    ])
  } finally {
    await app.stop()
  }
}, 120_000)
