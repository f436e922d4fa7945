import { BSON, MongoClient, ObjectId, type CommandSucceededEvent, type Db } from 'mongodb'
import { testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { ADMIN_ROLES, startReportsTestApp } from '../test/reports-test-app'
import { REPORTS_COLLECTION, type ReportAction, type ReportDocument } from './report-document'
import { REPORT_QUEUE_COLLECTION } from './report-queue-repository'
import { CLOSED_QUEUE_PREFIX, createClosedQueue } from './closed-queue-repository'
import { createReportsRepository } from './reports-repository'

// issue 19 §2: the closed moderation queue read from buckets by _id, on the real FerretDB.
// Each answer is checked against the query it replaces, over the reports themselves:
// closed reports, most recent first (filing time, then id), and their count.

const HOUR_MS = 60 * 60 * 1000
const T0 = Date.UTC(2026, 10, 1)

let client: MongoClient
let db: Db

beforeAll(async () => {
  client = await new MongoClient(testMongoUrl('reports_closed_queue')).connect()
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

/** A tiny deterministic random (the mix test's failures replay). */
function seeded(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

/** A closed queue of its own (its own database), with buckets of `bucketSize`. */
function closedIn(name: string, bucketSize = 3) {
  const scoped = client.db(`${db.databaseName}_${name}`)
  const reports = scoped.collection<ReportDocument>(REPORTS_COLLECTION)
  const queue = createClosedQueue(scoped, { bucketSize })
  const load = (ids: string[]) => Promise.all(ids.map((_id) => reports.findOne({ _id })))
  /** The query the queue replaces: every closed report, most recent first. */
  const truth = async () =>
    (await reports.find({ status: 'closed' }).sort({ createdAt: -1, _id: -1 }).toArray()).map(
      (r) => r._id,
    )
  /** Every page of the queue, joined, and each page's total. */
  async function pages(pageSize: number) {
    const ids: string[] = []
    const totals = new Set<number>()
    for (let page = 1; ; page += 1) {
      const answer = await queue.page(page, pageSize, load)
      if (!answer) throw new Error('closed queue not filled')
      totals.add(answer.total)
      expect(answer.items.length).toBeLessThanOrEqual(pageSize)
      ids.push(...answer.items.map((r) => r._id))
      if (answer.items.length < pageSize) break
    }
    return { ids, totals: [...totals] }
  }
  /** Closed by this version: listed first, then closed, as reports-repository.ts does. */
  async function close(doc: ReportDocument) {
    await queue.list([doc])
    await reports.updateOne({ _id: doc._id }, { $set: { status: 'closed' } })
  }
  const documents = () =>
    scoped
      .collection<{ _id: string; order?: unknown[] }>(REPORT_QUEUE_COLLECTION)
      .find({})
      .toArray()
  const bucketCount = async () =>
    (await documents()).find((d) => d._id === `${CLOSED_QUEUE_PREFIX}head`)!.order!.length
  return { scoped, reports, queue, load, truth, pages, close, documents, bucketCount }
}

const nothingBefore = async function* () {}

it('pages closed reports most recent first by filing time, whatever order they closed in, across buckets', async () => {
  const q = closedIn('order')
  await q.queue.fill(nothingBefore)
  const docs = Array.from({ length: 17 }, (_, i) => report(i * 60))
  await q.reports.insertMany(docs)
  // Closed out of filing order: a take-down reaches back, a deleted post closes old reports.
  const closingOrder = [3, 16, 0, 8, 9, 1, 15, 4, 12, 2, 11, 7, 14, 5]
  for (const i of closingOrder) await q.close(docs[i]!)

  const truth = await q.truth()
  expect(truth).toHaveLength(closingOrder.length)
  expect(await q.bucketCount()).toBeGreaterThan(3) // pages cross bucket boundaries
  for (const pageSize of [1, 2, 3, 5, 20]) {
    const { ids, totals } = await q.pages(pageSize)
    expect(ids).toEqual(truth)
    expect(totals).toEqual([truth.length])
  }
  // Page 2 of 5 starts in the middle of a bucket and ends in another.
  const second = await q.queue.page(2, 5, q.load)
  expect(second?.items.map((r) => r._id)).toEqual(truth.slice(5, 10))
  // Past the last page: nothing, the same total.
  expect(await q.queue.page(5, 5, q.load)).toEqual({ items: [], total: truth.length })
})

it('lists a report once however often its close is replayed, split buckets included', async () => {
  const q = closedIn('replay')
  await q.queue.fill(nothingBefore)
  const docs = Array.from({ length: 10 }, (_, i) => report(i))
  await q.reports.insertMany(docs)
  for (const doc of docs) await q.close(doc)
  // Every event delivered again, one by one and all at once, after the buckets split.
  for (const doc of docs) await q.queue.list([doc])
  await q.queue.list([...docs].reverse())
  await Promise.all(docs.map((doc) => q.queue.list([doc])))
  const { ids, totals } = await q.pages(4)
  expect(ids).toEqual(await q.truth())
  expect(totals).toEqual([10])
  const entries = (await q.documents())
    .filter((d) => d._id !== `${CLOSED_QUEUE_PREFIX}head`)
    .flatMap((d) => Object.keys((d as unknown as { entries: object }).entries))
  expect(entries.sort()).toEqual(docs.map((d) => `r${d._id}`).sort())
})

it('keeps every report of sixty closed at once, each once, in order', async () => {
  const q = closedIn('concurrent')
  await q.queue.fill(nothingBefore)
  const docs = Array.from({ length: 60 }, (_, i) => report((i * 7) % 60))
  await q.reports.insertMany(docs)
  // Sixty closes at once into buckets of three: splits race with listings and each other.
  await Promise.all(docs.map((doc) => q.close(doc)))
  const { ids, totals } = await q.pages(7)
  expect(ids).toEqual(await q.truth())
  expect(ids).toHaveLength(60)
  expect(totals).toEqual([60])
})

it('drops an entry a crash left (a report never closed, one deleted) and keeps pages full', async () => {
  const q = closedIn('leftovers')
  await q.queue.fill(nothingBefore)
  const docs = Array.from({ length: 6 }, (_, i) => report(i))
  await q.reports.insertMany(docs)
  for (const doc of docs) await q.close(doc)
  // Listed two minutes ago, and the process stopped before the report was closed.
  const aWhileAgo = new Date(Date.now() - 2 * 60 * 1000)
  const crashed = report(2.5)
  await q.reports.insertOne(crashed)
  await createClosedQueue(q.scoped, { bucketSize: 3, now: () => aWhileAgo }).list([crashed])
  // Deleted, and the process stopped before it left the closed queue.
  await q.reports.deleteOne({ _id: docs[4]!._id })

  const first = await q.queue.page(1, 2, q.load)
  expect(first?.items.map((r) => r._id)).toEqual([docs[5]!._id, docs[3]!._id])
  const { ids } = await q.pages(2)
  expect(ids).toEqual(await q.truth())
  expect((await q.queue.page(1, 2, q.load))?.total).toBe(5)

  // A close under way (listed just now, not closed yet) is skipped and kept.
  const underWay = report(3.5)
  await q.reports.insertOne(underWay)
  await q.queue.list([underWay])
  const answer = await q.queue.page(1, 10, q.load)
  expect(answer?.items.map((r) => r._id)).toEqual(await q.truth())
  await q.reports.updateOne({ _id: underWay._id }, { $set: { status: 'closed' } })
  expect((await q.pages(10)).ids).toEqual(await q.truth())
})

it('fills once from reports closed before the closed queue, resuming a stopped fill', async () => {
  const q = closedIn('fill')
  const old = Array.from({ length: 11 }, (_, i) => report(i * 10, { status: 'closed' }))
  await q.reports.insertMany([...old, report(35)])
  // Before the fill, the closed queue does not answer (the caller asks the reports).
  expect(await q.queue.page(1, 5, q.load)).toBeNull()
  // A report closed by this version while the fill has not run.
  const live = report(25)
  await q.reports.insertOne(live)
  await q.close(live)
  let listings = 0
  const closedAfter = (after: { at: Date; id: string } | null) =>
    (async function* () {
      const found = await q.reports
        .find({ status: 'closed' })
        .sort({ createdAt: 1, _id: 1 })
        .toArray()
      for (const doc of found) {
        const key = doc.createdAt.getTime()
        if (
          after &&
          (key < after.at.getTime() || (key === after.at.getTime() && doc._id <= after.id))
        )
          continue
        listings += 1
        yield doc
      }
    })()
  // The service closing: stopped after the first batch of three.
  let seen = 0
  expect(await q.queue.fill(closedAfter, () => ++seen > 4)).toBe(3)
  expect(await q.queue.page(1, 5, q.load)).toBeNull()
  // Two instances start at once: one resumes after the batch listed, the other finds the lease taken.
  listings = 0
  const filled = await Promise.all([q.queue.fill(closedAfter), q.queue.fill(closedAfter)])
  expect(filled.sort((a, b) => a - b)).toEqual([0, 9])
  expect(listings).toBe(9) // resumed: the first three not read again
  expect(await q.queue.fill(closedAfter)).toBe(0)
  const { ids, totals } = await q.pages(4)
  expect(ids).toEqual(await q.truth())
  expect(totals).toEqual([12])
})

it('fills through the repository from reports closed before, stopped and resumed at an instant many share', async () => {
  const scoped = client.db(`${db.databaseName}_fill_repository`)
  const repository = createReportsRepository(scoped, { notifyOutbox: () => {} })
  const reports = scoped.collection<ReportDocument>(REPORTS_COLLECTION)
  // 250 closed reports, ten to an instant: the stop after a batch of 100 falls inside one.
  const old = Array.from({ length: 250 }, (_, i) =>
    report(Math.floor(i / 10), { status: 'closed' }),
  )
  await reports.insertMany([...old, report(3)])
  let seen = 0
  expect(await repository.fillClosedQueue(() => ++seen > 130)).toBe(100)
  expect(await repository.page('closed', 1, 20)).toEqual({
    items: await reports
      .find({ status: 'closed' }, { projection: { outbox: 0, outboxPending: 0 } })
      .sort({ createdAt: -1, _id: -1 })
      .limit(20)
      .toArray(),
    total: 250,
  })
  // Resumed from the instant of the last report listed: that instant's reports again, then the rest.
  expect(await repository.fillClosedQueue(() => false)).toBeGreaterThanOrEqual(150)
  const truth = await reports
    .find({ status: 'closed' }, { projection: { outbox: 0, outboxPending: 0 } })
    .sort({ createdAt: -1, _id: -1 })
    .toArray()
  for (const page of [1, 2, 7, 13]) {
    expect(await repository.page('closed', page, 20)).toEqual({
      items: truth.slice((page - 1) * 20, page * 20),
      total: 250,
    })
  }
  const head = await scoped
    .collection<{ _id: string; order: unknown[] }>(REPORT_QUEUE_COLLECTION)
    .findOne({ _id: `${CLOSED_QUEUE_PREFIX}head` })
  // Listed oldest first: buckets filled up, not split in halves.
  expect(head?.order).toHaveLength(3)
})

it('reads as many documents and bytes for a page at ten times the closed reports', async () => {
  // What a page costs, counted rather than timed (the machine is shared): the commands it
  // sends and the bytes they bring back, with 300 and with 3,000 closed reports.
  const url = testMongoUrl('reports_closed_queue')
  const watched = await new MongoClient(`${url}&monitorCommands=true`).connect()
  try {
    const costOfPages = async (size: number) => {
      const scoped = watched.db(`${db.databaseName}_cost_${size}`)
      const reports = scoped.collection<ReportDocument>(REPORTS_COLLECTION)
      await reports.insertMany(
        Array.from({ length: size }, (_, i) =>
          report(i, { status: 'closed', description: 'x'.repeat(200) }),
        ),
      )
      const queue = createClosedQueue(scoped)
      await queue.fill(() => reports.find({ status: 'closed' }).sort({ createdAt: 1 }))
      const load = (ids: string[]) => Promise.all(ids.map((_id) => reports.findOne({ _id })))
      const costs: Array<{ commands: number; bytes: number }> = []
      for (const page of [1, 2, 7]) {
        const cost = { commands: 0, bytes: 0 }
        const count = (event: CommandSucceededEvent) => {
          if (event.databaseName !== scoped.databaseName) return
          cost.commands += 1
          cost.bytes += BSON.calculateObjectSize(event.reply as BSON.Document)
        }
        watched.on('commandSucceeded', count)
        const answer = await queue.page(page, 20, load)
        watched.off('commandSucceeded', count)
        expect(answer?.items).toHaveLength(20)
        expect(answer?.total).toBe(size)
        costs.push(cost)
      }
      return costs
    }
    const small = await costOfPages(300)
    const large = await costOfPages(3000)
    for (const [i, cost] of large.entries()) {
      expect(cost.commands).toBe(small[i]!.commands)
      // Only the head grows: one short entry per bucket.
      expect(cost.bytes / small[i]!.bytes).toBeLessThan(1.25)
    }
  } finally {
    await watched.close()
  }
}, 60_000)

it('answers as the old query through the repository, for a random mix of opens, closes, take-downs, deleted posts and deleted users', async () => {
  const scoped = client.db(`${db.databaseName}_mix`)
  const repository = createReportsRepository(scoped, { notifyOutbox: () => {} })
  const reports = scoped.collection<ReportDocument>(REPORTS_COLLECTION)
  await repository.fillQueue(() => false)
  await repository.fillClosedQueue(() => false)
  const random = seeded(19)
  const posts = Array.from({ length: 8 }, () => new ObjectId().toHexString())
  const moderators = [new ObjectId().toHexString(), new ObjectId().toHexString()]
  const reporters = Array.from({ length: 6 }, () => new ObjectId().toHexString())
  const pick = <T>(of: T[]) => of[Math.floor(random() * of.length)]!
  const oldQuery = async (page: number, pageSize: number) => {
    const items = await reports
      .find({ status: 'closed' }, { projection: { outbox: 0, outboxPending: 0 } })
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .toArray()
    return { items, total: await reports.countDocuments({ status: 'closed' }) }
  }
  const compare = async () => {
    const total = await reports.countDocuments({ status: 'closed' })
    for (const pageSize of [2, 20]) {
      for (let page = 1; page <= Math.ceil(total / pageSize) + 1; page += 1) {
        expect(await repository.page('closed', page, pageSize)).toEqual(
          await oldQuery(page, pageSize),
        )
      }
    }
  }
  for (let step = 0; step < 120; step += 1) {
    const roll = random()
    const open = await reports.find({ status: 'open' }).toArray()
    if (roll < 0.5 || open.length === 0) {
      // Filed at a random time of the last days, as late message reports are.
      const doc = report(Math.floor(random() * 5 * 24 * 3600), {
        targetId: pick(posts),
        reporterId: pick(reporters),
      })
      await repository.insert(doc, []).catch(() => {}) // a second report of one target: refused
    } else if (roll < 0.8) {
      const target = pick(open)
      const action: ReportAction = random() < 0.5 ? 'dismiss' : 'take-down'
      const update = {
        $set: {
          status: 'closed' as const,
          closedAt: new Date(),
          closedBy: pick(moderators),
          action,
        },
      }
      await repository.closeIfOpen(target, update, [])
      if (action === 'take-down') {
        for (const other of await repository.openOfTarget('post', target.targetId))
          await repository.closeIfOpen(other, update, [])
      }
    } else if (roll < 0.92) {
      const postId = pick(posts)
      await repository.closeOfDeletedPost(postId, new Date())
      await repository.closeOfDeletedPost(postId, new Date()) // post.deleted replayed
    } else {
      await repository.deleteOfUser(random() < 0.5 ? pick(reporters) : pick(moderators))
    }
    if (step % 20 === 19) await compare()
  }
  await compare()
  expect(await reports.countDocuments({ status: 'closed' })).toBeGreaterThan(20)
})

it('keeps no purged moderator id in the closed queue and drops the reports of a deleted user', async () => {
  const scoped = client.db(`${db.databaseName}_purge`)
  const repository = createReportsRepository(scoped, { notifyOutbox: () => {} })
  await repository.fillQueue(() => false)
  await repository.fillClosedQueue(() => false)
  const moderator = new ObjectId().toHexString()
  const reporter = new ObjectId().toHexString()
  const docs = Array.from({ length: 5 }, (_, i) => report(i, i < 2 ? { reporterId: reporter } : {}))
  for (const doc of docs) await repository.insert(doc, [])
  for (const doc of docs) {
    await repository.closeIfOpen(
      doc,
      { $set: { status: 'closed', closedAt: new Date(), closedBy: moderator, action: 'dismiss' } },
      [],
    )
  }
  await repository.deleteOfUser(moderator)
  await repository.deleteOfUser(reporter)
  const queueDocuments = await scoped.collection(REPORT_QUEUE_COLLECTION).find({}).toArray()
  expect(JSON.stringify(queueDocuments)).not.toContain(moderator)
  const page = await repository.page('closed', 1, 10)
  expect(page?.total).toBe(3)
  expect(page?.items.map((r) => r._id)).toEqual([docs[4]!._id, docs[3]!._id, docs[2]!._id])
  expect(page?.items.every((r) => r.closedBy === null)).toBe(true)
})

it('serves the closed queue of reports closed before it existed, through the route', async () => {
  const url = `${testMongoUrl('reports_closed_old')}&monitorCommands=true`
  const seed = await new MongoClient(url).connect()
  const old = Array.from({ length: 5 }, (_, i) =>
    report(i, {
      createdAt: new Date(Date.now() - (30 - i) * HOUR_MS),
      status: 'closed',
      closedAt: new Date(),
      closedBy: new ObjectId().toHexString(),
      action: 'dismiss',
    }),
  )
  const open = report(0, { createdAt: new Date(Date.now() - 20 * HOUR_MS) })
  await seed
    .db()
    .collection<ReportDocument>(REPORTS_COLLECTION)
    .insertMany([...old, open])
  await seed.close()
  const app = await startReportsTestApp('reports_closed_old', {
    MONGO_URL: url,
    QUEUE_PAGE_SIZE: '2',
  })
  try {
    const admin = app.clientFor(app.newUserId(), undefined, ADMIN_ROLES)
    const closedHead = () =>
      app.db
        .collection<{ _id: string; filledAt?: Date }>(REPORT_QUEUE_COLLECTION)
        .findOne({ _id: `${CLOSED_QUEUE_PREFIX}head` })
    await waitFor(async () => (await closedHead())?.filledAt instanceof Date, {
      what: 'the closed fill',
    })
    // Closing the open one through the route lists it, the most recent.
    expect((await admin.patch(`/api/reports/${open._id}`, { action: 'dismiss' })).status).toBe(200)
    const expected = [open, ...[...old].reverse()].map((r) => r._id)
    const seen: string[] = []
    for (let page = 1; page <= 3; page += 1) {
      const answer = await admin.get(`/api/reports?status=closed&page=${page}`)
      expect(answer.status).toBe(200)
      expect(answer.body.pagination).toEqual({ page, totalPages: 3, total: 6 })
      seen.push(...answer.body.reports.map((r: { _id: string }) => r._id))
    }
    expect(seen).toEqual(expected)
  } finally {
    await app.stop()
  }
}, 120_000)
