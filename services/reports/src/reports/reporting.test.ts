import { Topics } from '@marketplace/contracts/events'
import { REPORT_DESCRIPTION_MAX_LENGTH } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe } from '@marketplace/service-kit/testing'
import {
  ADMIN_ROLES,
  EVENT_WAIT_MS,
  startReportsTestApp,
  type ReportsTestApp,
} from '../test/reports-test-app'
import { REPORTS_COLLECTION, type ReportDocument } from './report-document'

describe('reports service: filing a report (real FerretDB and Kafka)', () => {
  let app: ReportsTestApp
  type Client = ReturnType<ReportsTestApp['clientFor']>
  let ownerId: string
  let reporterId: string
  let reporter: Client
  let workerId: string
  let admin: Client

  beforeAll(async () => {
    app = await startReportsTestApp('reports_filing')
    ownerId = await app.registerUser('Olga', 'Owner')
    reporterId = await app.registerUser('Rita', 'Reporter')
    reporter = app.clientFor(reporterId)
    workerId = await app.registerUser('Wes', 'Worker')
    await app.saveWorkerProfile(workerId)
    admin = app.clientFor(await app.registerUser('Ada', 'Admin'), undefined, ADMIN_ROLES)
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  const reports = () => app.db.collection<ReportDocument>(REPORTS_COLLECTION)
  const newReporter = async (firstName: string) =>
    app.clientFor(await app.registerUser(firstName, 'Reporter'))

  it('answers the reporter with their own report only: no reporter, owner or moderation fields', async () => {
    const postId = await app.announcePost(ownerId, 'Paint a fence')
    const filed = await reporter.post('/api/reports/posts', {
      postId,
      type: 'inappropriate',
      description: 'Rude words',
    })
    expect(filed.status).toBe(201)
    expect(Object.keys(filed.body).sort()).toEqual([
      '_id',
      'createdAt',
      'description',
      'status',
      'targetId',
      'targetType',
      'type',
    ])
    expect(filed.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(filed.text).not.toContain(reporterId)
    expect(filed.text).not.toContain(ownerId)
  })

  it('files the report in the caller’s name whatever the body claims, dropping unknown fields', async () => {
    const postId = await app.announcePost(ownerId, 'Mow a lawn')
    const filed = await reporter.post('/api/reports/posts', {
      postId,
      type: 'scam',
      reporterId: ownerId,
      targetOwnerId: reporterId,
      status: 'closed',
      action: 'take-down',
    })
    expect(filed.status).toBe(201)
    expect(filed.body.status).toBe('open')
    const stored = await reports().findOne({ _id: filed.body._id })
    expect(stored).toMatchObject({
      reporterId,
      targetOwnerId: ownerId,
      status: 'open',
      action: null,
      closedBy: null,
    })
  })

  it('answers each bad input with its message, checking the reason before the target', async () => {
    const postId = await app.announcePost(ownerId, 'Fix a tap')
    const cases: Array<[string, unknown, number, string]> = [
      ['/api/reports/posts', { type: 'scam' }, 400, 'postId must name what you are reporting'],
      [
        '/api/reports/posts',
        { postId: 'not/an id', type: 'scam' },
        400,
        'postId must name what you are reporting',
      ],
      ['/api/reports/posts', { postId, type: '' }, 400, Messages.reports.reasonRequired],
      ['/api/reports/posts', { postId, type: 'Scam' }, 400, Messages.reports.reasonRequired],
      // No reason and no target: the reason, the form's first field, is what is missing.
      ['/api/reports/posts', {}, 400, Messages.reports.reasonRequired],
      [
        '/api/reports/people',
        { type: 'other' },
        400,
        'reportedId must name what you are reporting',
      ],
      [
        '/api/reports/people',
        { reportedId: workerId, type: 'fraud' },
        400,
        Messages.reports.reasonRequired,
      ],
      [
        '/api/reports/people',
        { reportedId: workerId, type: 'other', description: 'y'.repeat(1001) },
        400,
        Messages.tooLong('Description', REPORT_DESCRIPTION_MAX_LENGTH),
      ],
    ]
    for (const [path, body, status, message] of cases) {
      const answer = await reporter.post(path, body)
      expect({ path, body, status: answer.status, message: answer.body?.message }).toEqual({
        path,
        body,
        status,
        message,
      })
    }
    expect(await reports().countDocuments({ targetId: { $in: [postId, workerId] } })).toBe(0)
  })

  it('answers a body field of the wrong JSON type with 400 and stores nothing', async () => {
    const postId = await app.announcePost(ownerId, 'Walk a dog')
    for (const body of [
      { postId: { $ne: null }, type: 'scam' },
      { postId, type: ['scam', 'other'] },
      { postId, type: 'scam', description: { text: 'nested' } },
      // Nothing is converted: a number is not text, however it would print.
      { postId, type: 'scam', description: 5 },
      { postId: 12345, type: 'scam' },
    ]) {
      const answer = await reporter.post('/api/reports/posts', body)
      expect({ body, status: answer.status }).toEqual({ body, status: 400 })
    }
    expect(await reports().countDocuments({ targetId: postId })).toBe(0)
  })

  it('keeps a description of exactly the maximum length, and stores blank or null details as empty', async () => {
    const longPost = await app.announcePost(ownerId, 'Long story')
    const longest = 'z'.repeat(REPORT_DESCRIPTION_MAX_LENGTH)
    const filed = await reporter.post('/api/reports/posts', {
      postId: longPost,
      type: 'other',
      description: longest,
    })
    expect(filed.status).toBe(201)
    expect(filed.body.description).toBe(longest)

    const blankPost = await app.announcePost(ownerId, 'Blank story')
    const blank = await reporter.post('/api/reports/posts', {
      postId: blankPost,
      type: 'other',
      description: '   ',
    })
    expect(blank.status).toBe(201)
    expect(blank.body.description).toBe('')

    const nullPost = await app.announcePost(ownerId, 'No story')
    const none = await reporter.post('/api/reports/posts', {
      postId: nullPost,
      type: 'other',
      description: null,
    })
    expect(none.status).toBe(201)
    expect(none.body.description).toBe('')
  })

  it('lets each user report the same post once, even after a moderator dismissed theirs', async () => {
    const postId = await app.announcePost(ownerId, 'Disputed job')
    const first = await reporter.post('/api/reports/posts', { postId, type: 'scam' })
    expect(first.status).toBe(201)
    expect(
      (await admin.patch(`/api/reports/${first.body._id}`, { action: 'dismiss' })).status,
    ).toBe(200)
    const again = await reporter.post('/api/reports/posts', { postId, type: 'other' })
    expect(again.status).toBe(409)
    expect(again.body.message).toBe(Messages.reports.alreadyReportedPost)

    const other = await newReporter('Oscar')
    expect((await other.post('/api/reports/posts', { postId, type: 'scam' })).status).toBe(201)
    expect(await reports().countDocuments({ targetId: postId })).toBe(2)
  })

  it('keeps one report of two sent at once by the same user (the second gets 409)', async () => {
    const postId = await app.announcePost(ownerId, 'Double click')
    const twin = await newReporter('Tina')
    const answers = await Promise.all([
      twin.post('/api/reports/posts', { postId, type: 'scam' }),
      twin.post('/api/reports/posts', { postId, type: 'scam' }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
    expect(await reports().countDocuments({ targetId: postId })).toBe(1)

    const people = await Promise.all([
      twin.post('/api/reports/people', { reportedId: workerId, type: 'other' }),
      twin.post('/api/reports/people', { reportedId: workerId, type: 'other' }),
    ])
    expect(people.map((answer) => answer.status).sort()).toEqual([201, 409])
    expect(people.find((answer) => answer.status === 409)!.body.message).toBe(
      Messages.reports.alreadyReportedPerson,
    )
  })

  it('refuses to report a post or a person a moderator took down, as not found', async () => {
    const postId = await app.announcePost(ownerId, 'Taken down job')
    await app.announcePost(ownerId, 'Taken down job', { postId, isOnline: false, takenDown: true })
    const post = await reporter.post('/api/reports/posts', { postId, type: 'scam' })
    expect(post.status).toBe(404)
    expect(post.body.message).toBe(Messages.reports.postNotFound)

    const hiddenId = await app.registerUser('Hal', 'Hidden')
    await app.saveWorkerProfile(hiddenId, { isOnline: false, takenDown: true })
    const person = await reporter.post('/api/reports/people', {
      reportedId: hiddenId,
      type: 'other',
    })
    expect(person.status).toBe(404)
    expect(person.body.message).toBe(Messages.reports.personNotFound)
  })

  it('lets anyone known be reported as a person, with or without a worker profile', async () => {
    const memberId = await app.registerUser('Mia', 'Member')
    const filed = await reporter.post('/api/reports/people', {
      reportedId: memberId,
      type: 'other',
    })
    expect(filed.status).toBe(201)
    expect(filed.body).toMatchObject({ targetType: 'person', targetId: memberId })
  })

  it('needs a token to report a person too, and reads nothing a guest sends', async () => {
    const guest = app.clientFor(null)
    const answers = [
      await guest.post('/api/reports/people', { reportedId: workerId, type: 'other' }),
      // A malformed body from a guest is still a 401: the token is checked first.
      await guest.post('/api/reports/people', { reportedId: { $gt: '' } }),
      await guest.post('/api/reports/posts', { type: ['x'] }),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401])
  })

  it('announces a report on a person with the person as the owner of the target', async () => {
    const probe = await startEventProbe(Topics.reports)
    try {
      const announcer = await newReporter('Andy')
      const filed = await announcer.post('/api/reports/people', {
        reportedId: workerId,
        type: 'inappropriate',
        description: 'Offensive profile',
      })
      expect(filed.status).toBe(201)
      const event = await probe.waitForEvent('report.created', filed.body._id, EVENT_WAIT_MS)
      expect(event.data).toEqual({
        reportId: filed.body._id,
        reporterId: announcer.userId,
        targetType: 'person',
        targetId: workerId,
        targetOwnerId: workerId,
        reason: 'inappropriate',
        createdAt: filed.body.createdAt,
      })
      // The details stay with the moderators: the event does not carry them.
      expect(JSON.stringify(event)).not.toContain('Offensive profile')
    } finally {
      await probe.stop()
    }
  })
})
