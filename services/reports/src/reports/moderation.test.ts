import { Topics, type DomainEvent } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import {
  ADMIN_ROLES,
  EDITOR_ROLES,
  EVENT_WAIT_MS,
  startReportsTestApp,
  type ReportsTestApp,
} from '../test/reports-test-app'
import { REPORTS_COLLECTION, type ReportDocument } from './report-document'

const PAGE_SIZE = 2
const HOUR_MS = 60 * 60 * 1000

interface QueueReport {
  _id: string
  status: string
  createdAt: string
  overdue: boolean
  reviewDueAt: string
}

describe('reports service: the moderation queue (real FerretDB and Kafka)', () => {
  let app: ReportsTestApp
  type Client = ReturnType<ReportsTestApp['clientFor']>
  let ownerId: string
  let workerId: string
  let admin: Client
  let adminId: string
  let editor: Client
  let editorId: string

  beforeAll(async () => {
    app = await startReportsTestApp('reports_moderation', { QUEUE_PAGE_SIZE: String(PAGE_SIZE) })
    ownerId = await app.registerUser('Olga', 'Owner')
    workerId = await app.registerUser('Wes', 'Worker')
    await app.saveWorkerProfile(workerId)
    adminId = await app.registerUser('Ada', 'Admin')
    admin = app.clientFor(adminId, undefined, ADMIN_ROLES)
    editorId = await app.registerUser('Ed', 'Editor')
    editor = app.clientFor(editorId, undefined, EDITOR_ROLES)
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  const reports = () => app.db.collection<ReportDocument>(REPORTS_COLLECTION)
  const member = async (firstName: string) =>
    app.clientFor(await app.registerUser(firstName, 'Member'))

  /** A post of the owner's, reported by a new member; the report's id. */
  async function reportedPost(title: string, fields = {}) {
    const postId = await app.announcePost(ownerId, title, fields)
    const filed = await (await member('Rita')).post('/api/reports/posts', { postId, type: 'scam' })
    expect(filed.status).toBe(201)
    return { postId, reportId: filed.body._id as string }
  }

  it('lets only administrators (2001) and editors (2002) list, read or resolve reports', async () => {
    const { reportId } = await reportedPost('Who may look')
    const userId = app.newUserId()
    const refused: Array<[string, string[]]> = [
      ['a member', ['2000']],
      ['a token without roles', []],
      ['an unknown role', ['2000', '2003']],
    ]
    for (const [who, roles] of refused) {
      const client = app.clientFor(userId, undefined, roles)
      for (const answer of [
        await client.get('/api/reports'),
        await client.get(`/api/reports/${reportId}`),
        await client.patch(`/api/reports/${reportId}`, { action: 'take-down' }),
      ]) {
        expect({ who, status: answer.status, message: answer.body?.message }).toEqual({
          who,
          status: 403,
          message: Messages.reports.moderatorsOnly,
        })
      }
    }
    // An editor without the member role is still an editor.
    const editorOnly = app.clientFor(app.newUserId(), undefined, ['2002'])
    expect((await editorOnly.get(`/api/reports/${reportId}`)).status).toBe(200)
    expect((await reports().findOne({ _id: reportId }))!.status).toBe('open')
  })

  it('refuses whoever may not moderate before looking at what they sent', async () => {
    const { reportId } = await reportedPost('Checked first')
    const user = await member('Uma')
    const guest = app.clientFor(null)
    const longId = 'a'.repeat(65)
    for (const [client, status] of [
      [user, 403],
      [guest, 401],
    ] as const) {
      const answers = [
        await client.get('/api/reports?status=nonsense&page=zero'),
        await client.get(`/api/reports/${longId}`),
        await client.patch(`/api/reports/${reportId}`, { action: 'ban' }),
        await client.patch(`/api/reports/${reportId}`, { action: { $ne: null } }),
      ]
      expect(answers.map((answer) => answer.status)).toEqual([status, status, status, status])
    }
  })

  it('never shows a member any report, their own included (BOLA)', async () => {
    const postId = await app.announcePost(ownerId, 'Private reports')
    const alice = await member('Alice')
    const bob = await member('Bob')
    const mine = await alice.post('/api/reports/posts', {
      postId,
      type: 'other',
      description: 'Alice wrote this',
    })
    const theirs = await bob.post('/api/reports/posts', {
      postId,
      type: 'scam',
      description: 'Bob wrote this',
    })
    for (const reportId of [mine.body._id, theirs.body._id]) {
      const answer = await alice.get(`/api/reports/${reportId}`)
      expect(answer.status).toBe(403)
      expect(answer.body).toEqual({
        message: Messages.reports.moderatorsOnly,
        code: 'MODERATORS_ONLY',
      })
    }
    const queue = await alice.get('/api/reports?status=open')
    expect(queue.status).toBe(403)
    expect(queue.text).not.toContain('Bob wrote this')
  })

  it('pages the open queue oldest first and the closed queue most recent first', async () => {
    for (const title of ['Page one', 'Page two', 'Page three']) await reportedPost(title)
    const closing = await reportedPost('Closed for the queue')
    expect(
      (await admin.patch(`/api/reports/${closing.reportId}`, { action: 'dismiss' })).status,
    ).toBe(200)

    async function everyPage(status: 'open' | 'closed') {
      const first = await admin.get(`/api/reports?status=${status}`)
      expect(first.status).toBe(200)
      const { total, totalPages } = first.body.pagination
      expect(total).toBe(await reports().countDocuments({ status }))
      expect(totalPages).toBe(Math.max(1, Math.ceil(total / PAGE_SIZE)))
      const all: QueueReport[] = []
      for (let page = 1; page <= totalPages; page += 1) {
        const answer = await admin.get(`/api/reports?status=${status}&page=${page}`)
        expect(answer.body.pagination).toEqual({ page, totalPages, total })
        expect(answer.body.reports.length).toBe(Math.min(PAGE_SIZE, total - (page - 1) * PAGE_SIZE))
        all.push(...answer.body.reports)
      }
      const past = await admin.get(`/api/reports?status=${status}&page=${totalPages + 1}`)
      expect(past.body.reports).toEqual([])
      expect(new Set(all.map((report) => report._id)).size).toBe(total)
      expect(all.every((report) => report.status === status)).toBe(true)
      return all.map((report) => report.createdAt)
    }

    const open = await everyPage('open')
    expect(open).toEqual([...open].sort())
    const closed = await everyPage('closed')
    expect(closed).toEqual([...closed].sort().reverse())
    // The queue's default is the open one, from page 1.
    const byDefault = await admin.get('/api/reports')
    expect(byDefault.body.pagination.page).toBe(1)
    expect(byDefault.body.reports.map((report: QueueReport) => report.createdAt)).toEqual(
      open.slice(0, PAGE_SIZE),
    )
  })

  it('answers a bad status or page with its message', async () => {
    const cases: Array<[string, string]> = [
      ['status=nonsense', Messages.reports.invalidStatus],
      ['status=OPEN', Messages.reports.invalidStatus],
      ['status=', Messages.reports.invalidStatus],
      ['page=0', 'page must be a whole number from 1 to 10000'],
      ['page=1.5', 'page must be a whole number from 1 to 10000'],
      ['page=ten', 'page must be a whole number from 1 to 10000'],
      ['page=10001', 'page must be a whole number from 1 to 10000'],
    ]
    for (const [query, message] of cases) {
      const answer = await editor.get(`/api/reports?${query}`)
      expect({ query, status: answer.status, message: answer.body.message }).toEqual({
        query,
        status: 400,
        message,
      })
    }
  })

  it('counts as overdue every open report older than 24 hours, on every page, never a closed one', async () => {
    const old = await reportedPost('Old and open')
    const oldClosed = await reportedPost('Old and closed')
    await admin.patch(`/api/reports/${oldClosed.reportId}`, { action: 'dismiss' })
    const longAgo = new Date(Date.now() - 30 * HOUR_MS)
    await app.fileAt([old.reportId, oldClosed.reportId], longAgo)
    const expected = await reports().countDocuments({
      status: 'open',
      createdAt: { $lt: new Date(Date.now() - 24 * HOUR_MS) },
    })
    expect(expected).toBeGreaterThanOrEqual(1)
    const lastPage = (await admin.get('/api/reports')).body.pagination.totalPages
    for (const page of [1, lastPage]) {
      expect((await admin.get(`/api/reports?page=${page}`)).body).toMatchObject({
        overdue: expected,
        reviewWithinHours: 24,
      })
    }
    const openView = await admin.get(`/api/reports/${old.reportId}`)
    expect(openView.body).toMatchObject({
      overdue: true,
      ageHours: 30,
      reviewDueAt: new Date(longAgo.getTime() + 24 * HOUR_MS).toISOString(),
    })
    const closedView = await admin.get(`/api/reports/${oldClosed.reportId}`)
    expect(closedView.body).toMatchObject({ status: 'closed', overdue: false, ageHours: 30 })
  })

  it('shows a fresh report due in 24 hours, not overdue, with who filed it', async () => {
    const postId = await app.announcePost(ownerId, 'Fresh report')
    const reporterId = await app.registerUser('Fay', 'Fresh')
    const filed = await app
      .clientFor(reporterId)
      .post('/api/reports/posts', { postId, type: 'inappropriate', description: 'Rude' })
    const view = await editor.get(`/api/reports/${filed.body._id}`)
    expect(view.status).toBe(200)
    expect(view.body).toMatchObject({
      _id: filed.body._id,
      targetType: 'post',
      targetId: postId,
      type: 'inappropriate',
      reasonLabel: 'Inappropriate/Offensive Content',
      description: 'Rude',
      status: 'open',
      reporter: { _id: reporterId, name: 'Fay Fresh' },
      openReportsOnTarget: 1,
      createdAt: filed.body.createdAt,
      ageHours: 0,
      reviewDueAt: new Date(Date.parse(filed.body.createdAt) + 24 * HOUR_MS).toISOString(),
      overdue: false,
      closedAt: null,
      closedBy: null,
      action: null,
    })
    expect(Object.keys(view.body.reporter).sort()).toEqual(['_id', 'name'])
  })

  it('shows a reported post as a guest sees it, and its take-down once jobs announces it', async () => {
    const { postId, reportId } = await reportedPost('Hidden details', {
      displayLocation: false,
      displayContact: false,
      salary: '$80',
    })
    const view = await admin.get(`/api/reports/${reportId}`)
    expect(view.body.target).toEqual({
      post: expect.objectContaining({
        _id: postId,
        jobID: postId,
        userID: ownerId,
        title: 'Hidden details',
        salary: '$80',
        location: null,
        contact: null,
        authorizedUsers: [],
      }),
      takenDown: false,
    })
    await app.announcePost(ownerId, 'Hidden details', { postId, isOnline: false, takenDown: true })
    const after = await admin.get(`/api/reports/${reportId}`)
    expect(after.body.target).toMatchObject({ post: { _id: postId }, takenDown: true })
    expect(after.body.target.post).not.toHaveProperty('takenDown')
  })

  it('shows a reported person as a stranger sees them: an age, public contacts, nothing private', async () => {
    const reporter = await member('Pete')
    const filed = await reporter.post('/api/reports/people', {
      reportedId: workerId,
      type: 'other',
    })
    const view = await admin.get(`/api/reports/${filed.body._id}`)
    expect(view.body.targetType).toBe('person')
    const { person } = view.body.target
    expect(Object.keys(person).sort()).toEqual(
      [
        '_id',
        'age',
        'availability',
        'category',
        'contacts',
        'firstName',
        'infos',
        'isOnline',
        'isWorker',
        'lastName',
        'location',
        'name',
        'paymentType',
        'profilePicture',
        'skills',
        'title',
      ].sort(),
    )
    expect(person).toMatchObject({
      _id: workerId,
      name: 'Wes Worker',
      isWorker: true,
      title: 'House mover',
      contacts: [{ value: 'mover@example.com', visibility: 'public' }],
    })
    expect(typeof person.age).toBe('number')
    // What the people catalog holds but a stranger never sees: date of birth, e-mail, phone.
    expect(view.text).not.toContain('1990-06-15')
    expect(view.text).not.toContain(`wes.worker.${workerId}`)
    expect(view.text).not.toContain('555-0100')
  })

  it('names a reporter the service does not know "Unknown User", and shows a deleted post as gone', async () => {
    const postId = await app.announcePost(ownerId, 'Soon gone')
    const strangerId = app.newUserId()
    const filed = await app
      .clientFor(strangerId)
      .post('/api/reports/posts', { postId, type: 'other' })
    expect(filed.status).toBe(201)
    expect((await admin.get(`/api/reports/${filed.body._id}`)).body.reporter).toEqual({
      _id: strangerId,
      name: 'Unknown User',
    })

    await app.deletePost(postId, ownerId, 'Soon gone')
    await waitFor(
      async () => (await reports().findOne({ _id: filed.body._id }))?.status === 'closed',
      {
        timeoutMs: EVENT_WAIT_MS,
        what: 'report of the deleted post closed',
      },
    )
    const gone = await admin.get(`/api/reports/${filed.body._id}`)
    expect(gone.body).toMatchObject({
      target: null,
      status: 'closed',
      action: 'target-deleted',
      closedBy: null,
      closedAt: expect.any(String),
      openReportsOnTarget: 0,
    })
    const late = await admin.patch(`/api/reports/${filed.body._id}`, { action: 'take-down' })
    expect(late.status).toBe(409)
    expect(late.body.message).toBe(Messages.reports.alreadyClosed)
  })

  it('lets an editor resolve as an administrator does, recording who closed it and when', async () => {
    const { reportId } = await reportedPost('Editor decides')
    const before = Date.now()
    const closed = await editor.patch(`/api/reports/${reportId}`, { action: 'take-down' })
    expect(closed.status).toBe(200)
    expect(closed.body).toMatchObject({
      _id: reportId,
      status: 'closed',
      action: 'take-down',
      closedBy: editorId,
      overdue: false,
      openReportsOnTarget: 0,
    })
    expect(Date.parse(closed.body.closedAt)).toBeGreaterThanOrEqual(before - 1000)
    expect((await admin.get(`/api/reports/${reportId}`)).body).toMatchObject({
      closedBy: editorId,
      closedAt: closed.body.closedAt,
    })
  })

  it('dismisses one report only: other reports of the same content stay open', async () => {
    const postId = await app.announcePost(ownerId, 'Two opinions')
    const first = await (await member('Fred')).post('/api/reports/posts', { postId, type: 'scam' })
    const second = await (
      await member('Sara')
    ).post('/api/reports/posts', { postId, type: 'other' })
    const dismissed = await admin.patch(`/api/reports/${first.body._id}`, { action: 'dismiss' })
    expect(dismissed.body).toMatchObject({ status: 'closed', action: 'dismiss', closedBy: adminId })
    // The count beside it is of the reports still open on that content.
    expect(dismissed.body.openReportsOnTarget).toBe(1)
    expect((await admin.get(`/api/reports/${second.body._id}`)).body).toMatchObject({
      status: 'open',
      action: null,
      openReportsOnTarget: 1,
    })
  })

  it('publishes one report.resolved take-down per open report of the content, none for the others', async () => {
    const postId = await app.announcePost(ownerId, 'Fraud for sure')
    const otherPost = await app.announcePost(ownerId, 'Innocent neighbour')
    const file = async (name: string, target: string) =>
      (await (await member(name)).post('/api/reports/posts', { postId: target, type: 'scam' })).body
        ._id as string
    const first = await file('Ann', postId)
    const second = await file('Ben', postId)
    const dismissedEarlier = await file('Cid', postId)
    const elsewhere = await file('Dot', otherPost)
    await editor.patch(`/api/reports/${dismissedEarlier}`, { action: 'dismiss' })

    const probe = await startEventProbe(Topics.reports)
    try {
      const taken = await admin.patch(`/api/reports/${second}`, { action: 'take-down' })
      expect(taken.status).toBe(200)
      // The earlier dismissal's own event may still be on its way: only take-downs count.
      const resolved = () =>
        (probe.events as Array<DomainEvent<'report.resolved'>>).filter(
          (event) => event.type === 'report.resolved' && event.data.action === 'take-down',
        )
      await waitFor(() => resolved().length >= 2, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'two report.resolved take-downs',
      })
      expect(
        resolved()
          .map((event) => ({
            aggregateId: event.aggregateId,
            actorId: event.actorId,
            data: event.data,
          }))
          .sort((a, b) => a.aggregateId.localeCompare(b.aggregateId)),
      ).toEqual(
        [first, second].sort().map((reportId) => ({
          aggregateId: reportId,
          actorId: adminId,
          data: { reportId, targetType: 'post', targetId: postId, action: 'take-down' },
        })),
      )
      const stored = await reports()
        .find({ _id: { $in: [first, second, dismissedEarlier, elsewhere] } })
        .toArray()
      const byId = new Map(stored.map((report) => [report._id, report]))
      expect(byId.get(first)).toMatchObject({
        status: 'closed',
        action: 'take-down',
        closedBy: adminId,
      })
      expect(byId.get(dismissedEarlier)).toMatchObject({ action: 'dismiss', closedBy: editorId })
      expect(byId.get(elsewhere)).toMatchObject({ status: 'open', action: null })
      expect(probe.events.filter((event) => event.aggregateId === elsewhere)).toEqual([])
    } finally {
      await probe.stop()
    }
  })

  it('takes a person down with a report.resolved naming the person', async () => {
    const targetId = await app.registerUser('Tom', 'Target')
    await app.saveWorkerProfile(targetId)
    const filed = await (
      await member('Vic')
    ).post('/api/reports/people', {
      reportedId: targetId,
      type: 'inappropriate',
    })
    const probe = await startEventProbe(Topics.reports)
    try {
      expect(
        (await editor.patch(`/api/reports/${filed.body._id}`, { action: 'take-down' })).status,
      ).toBe(200)
      const event = await probe.waitForEvent('report.resolved', filed.body._id, EVENT_WAIT_MS)
      expect(event.data).toEqual({
        reportId: filed.body._id,
        targetType: 'person',
        targetId,
        action: 'take-down',
      })
    } finally {
      await probe.stop()
    }
    // people hides the profile and says so; the queue then shows it as taken down.
    await app.saveWorkerProfile(targetId, { isOnline: false, takenDown: true })
    expect((await admin.get(`/api/reports/${filed.body._id}`)).body.target).toMatchObject({
      person: { _id: targetId },
      takenDown: true,
    })
  })

  it('closes a report once when two moderators resolve it at the same moment', async () => {
    const { reportId } = await reportedPost('Race to resolve')
    const answers = await Promise.all([
      admin.patch(`/api/reports/${reportId}`, { action: 'dismiss' }),
      editor.patch(`/api/reports/${reportId}`, { action: 'take-down' }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const winner = answers.find((answer) => answer.status === 200)!
    const loser = answers.find((answer) => answer.status === 409)!
    expect(loser.body.message).toBe(Messages.reports.alreadyClosed)
    expect(await reports().findOne({ _id: reportId })).toMatchObject({
      status: 'closed',
      action: winner.body.action,
      closedBy: winner.body.closedBy,
    })
  })

  it('answers a bad action or report id with its message, the action checked first', async () => {
    const { reportId } = await reportedPost('Bad input')
    const unknownId = '0123456789abcdef01234567'
    const cases: Array<[string, string, unknown, number, string]> = [
      ['patch', reportId, {}, 400, Messages.reports.invalidAction],
      ['patch', reportId, { action: 'Dismiss' }, 400, Messages.reports.invalidAction],
      ['patch', reportId, { action: 'delete' }, 400, Messages.reports.invalidAction],
      ['patch', unknownId, { action: 'ban' }, 400, Messages.reports.invalidAction],
      ['patch', unknownId, { action: 'dismiss' }, 404, Messages.reports.reportNotFound],
      ['patch', 'not-an-id!', { action: 'dismiss' }, 404, Messages.reports.reportNotFound],
      ['get', unknownId, undefined, 404, Messages.reports.reportNotFound],
      ['get', 'x.y', undefined, 404, Messages.reports.reportNotFound],
    ]
    for (const [method, id, body, status, message] of cases) {
      const answer =
        method === 'get'
          ? await admin.get(`/api/reports/${id}`)
          : await admin.patch(`/api/reports/${id}`, body)
      expect({ method, id, body, status: answer.status, message: answer.body.message }).toEqual({
        method,
        id,
        body,
        status,
        message,
      })
    }
    const tooLong = await admin.get(`/api/reports/${'a'.repeat(65)}`)
    expect(tooLong.status).toBe(400)
    expect((await reports().findOne({ _id: reportId }))!.status).toBe('open')
  })
  it('pages both queues in a fixed number of commands, at 1x and 10x the reports', async () => {
    const postId = await app.announcePost(ownerId, 'Reported a lot')
    const at = Date.now() - 60_000
    /** `count` reports of the post by strangers, half open and half closed, stored directly. */
    const store = (from: number, count: number) =>
      reports().insertMany(
        Array.from({ length: count }, (_, i): ReportDocument => {
          const n = from + i
          const closed = n % 2 === 1
          return {
            _id: `budget-${n}-${app.newUserId()}`,
            reporterId: app.newUserId(),
            targetType: 'post',
            targetId: postId,
            targetOwnerId: ownerId,
            reason: 'scam',
            description: '',
            status: closed ? 'closed' : 'open',
            createdAt: new Date(at + n),
            closedAt: closed ? new Date(at + n + 1) : null,
            closedBy: closed ? adminId : null,
            action: closed ? 'dismiss' : null,
          }
        }),
      )
    const costs = async () => {
      const open = await admin.get('/api/reports?status=open&page=2')
      const closed = await admin.get('/api/reports?status=closed&page=2')
      expect(open.body.reports).toHaveLength(PAGE_SIZE)
      expect(closed.body.reports).toHaveLength(PAGE_SIZE)
      return { open: open.commands, closed: closed.commands }
    }
    await store(0, 40)
    const atSmall = await costs()
    await store(40, 360)
    const atLarge = await costs()
    console.log(`moderation queue commands at 1x and 10x: ${JSON.stringify({ atSmall, atLarge })}`)
    expect(atLarge).toEqual(atSmall)
    for (const commands of Object.values(atSmall)) {
      expect(commands).toBeGreaterThan(0)
      // The page; its total with the overdue count (closed queue) or with the open counts of
      // every target (open queue); the overdue count (open queue); the posts; the people; the
      // open counts of the page's targets (closed queue).
      expect(commands).toBeLessThanOrEqual(5)
    }
  })
})
