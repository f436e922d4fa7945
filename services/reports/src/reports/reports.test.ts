import { Topics } from '@marketplace/contracts/events'
import { REPORT_DESCRIPTION_MAX_LENGTH } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { REPORTS_COLLECTION } from './report-document'
import {
  ADMIN_ROLES,
  EDITOR_ROLES,
  EVENT_WAIT_MS,
  startReportsTestApp,
  type ReportsTestApp,
} from '../test/reports-test-app'

describe('reports service: reporting and moderation (real FerretDB and Kafka)', () => {
  let app: ReportsTestApp
  type Client = ReturnType<ReportsTestApp['clientFor']>
  let ownerId: string
  let owner: Client
  let reporterId: string
  let reporter: Client
  let workerId: string
  let admin: Client
  let editor: Client

  beforeAll(async () => {
    app = await startReportsTestApp('reports')
    ownerId = await app.registerUser('Olga', 'Owner')
    owner = app.clientFor(ownerId)
    reporterId = await app.registerUser('Rita', 'Reporter')
    reporter = app.clientFor(reporterId)
    workerId = await app.registerUser('Wes', 'Worker')
    await app.saveWorkerProfile(workerId)
    admin = app.clientFor(await app.registerUser('Ada', 'Admin'), undefined, ADMIN_ROLES)
    editor = app.clientFor(await app.registerUser('Ed', 'Editor'), undefined, EDITOR_ROLES)
  })

  afterAll(async () => {
    await app?.stop()
  })

  const reportsOn = (targetId: string) =>
    app.db.collection(REPORTS_COLLECTION).find({ targetId }).toArray()

  it('files a report on a post once, announces it, and answers each refusal with its text', async () => {
    const probe = await startEventProbe(Topics.reports)
    try {
      const postId = await app.announcePost(ownerId, 'Suspicious job')
      const filed = await reporter.post('/api/reports/posts', {
        postId,
        type: 'scam',
        description: '  Asks for a deposit  ',
      })
      expect(filed.status).toBe(201)
      expect(filed.body).toMatchObject({
        targetType: 'post',
        targetId: postId,
        type: 'scam',
        description: 'Asks for a deposit',
        status: 'open',
      })
      const event = await probe.waitForEvent('report.created', filed.body._id, EVENT_WAIT_MS)
      expect(event.data).toMatchObject({
        reporterId,
        targetType: 'post',
        targetId: postId,
        targetOwnerId: ownerId,
        reason: 'scam',
      })

      const refusals: Array<[Client, unknown, number, string]> = [
        [reporter, { postId, type: 'other' }, 409, Messages.reports.alreadyReportedPost],
        [owner, { postId, type: 'scam' }, 400, Messages.reports.cannotReportYourselfServer],
        [reporter, { postId }, 400, Messages.reports.reasonRequired],
        [reporter, { postId, type: 'spam' }, 400, Messages.reports.reasonRequired],
        [
          reporter,
          { postId, type: 'other', description: 'x'.repeat(REPORT_DESCRIPTION_MAX_LENGTH + 1) },
          400,
          Messages.tooLong('Description', REPORT_DESCRIPTION_MAX_LENGTH),
        ],
        [
          reporter,
          { postId: '0123456789abcdef01234567', type: 'scam' },
          404,
          Messages.reports.postNotFound,
        ],
      ]
      for (const [client, body, status, message] of refusals) {
        const answer = await client.post('/api/reports/posts', body)
        expect({ body, status: answer.status, message: answer.body?.message }).toEqual({
          body,
          status,
          message,
        })
      }
      expect(await reportsOn(postId)).toHaveLength(1)
      expect((await app.clientFor(null).post('/api/reports/posts', { postId })).status).toBe(401)
    } finally {
      await probe.stop()
    }
  })

  it('files a report on a person once, never on oneself', async () => {
    const filed = await reporter.post('/api/reports/people', {
      reportedId: workerId,
      type: 'inappropriate',
    })
    expect(filed.status).toBe(201)
    expect(filed.body).toMatchObject({ targetType: 'person', targetId: workerId, description: '' })
    const again = await reporter.post('/api/reports/people', {
      reportedId: workerId,
      type: 'other',
    })
    expect(again.status).toBe(409)
    expect(again.body.message).toBe(Messages.reports.alreadyReportedPerson)
    const self = await reporter.post('/api/reports/people', {
      reportedId: reporterId,
      type: 'other',
    })
    expect(self.status).toBe(400)
    expect(self.body.message).toBe(Messages.reports.cannotReportYourselfServer)
    const unknown = await reporter.post('/api/reports/people', {
      reportedId: '0123456789abcdef01234567',
      type: 'other',
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe(Messages.reports.personNotFound)
  })

  it('shows the queue only to administrators and editors', async () => {
    const someReport = (await app.db.collection(REPORTS_COLLECTION).findOne({}))!._id
    for (const attempt of [
      await reporter.get('/api/reports'),
      await reporter.get(`/api/reports/${someReport}`),
      await reporter.patch(`/api/reports/${someReport}`, { action: 'take-down' }),
    ]) {
      expect(attempt.status).toBe(403)
      expect(attempt.body.message).toBe(Messages.reports.moderatorsOnly)
    }
    expect((await app.clientFor(null).get('/api/reports')).status).toBe(401)
    expect((await editor.get('/api/reports')).status).toBe(200)
    expect((await app.db.collection(REPORTS_COLLECTION).findOne({ _id: someReport }))!.status).toBe(
      'open',
    )
  })

  it('lists open reports oldest first with the content, the reporter and the 24-hour promise', async () => {
    const postId = await app.announcePost(ownerId, 'Old report target', {
      displayLocation: true,
      location: 'Austin TX',
    })
    const filed = await reporter.post('/api/reports/posts', { postId, type: 'other' })
    // This report came in 25 hours ago: past the promise.
    await app.fileAt([filed.body._id], new Date(Date.now() - 25 * 60 * 60 * 1000))
    const queue = await admin.get('/api/reports')
    expect(queue.status).toBe(200)
    expect(queue.body).toMatchObject({ reviewWithinHours: 24, overdue: 1 })
    const [oldest, ...rest] = queue.body.reports
    expect(oldest).toMatchObject({
      _id: filed.body._id,
      type: 'other',
      reasonLabel: 'Other',
      status: 'open',
      reporter: { _id: reporterId, name: 'Rita Reporter' },
      target: { post: { _id: postId, title: 'Old report target', location: 'Austin TX' } },
      ageHours: 25,
      overdue: true,
      openReportsOnTarget: 1,
    })
    expect(rest.every((report: { overdue: boolean }) => !report.overdue)).toBe(true)
    const times = queue.body.reports.map((report: { createdAt: string }) => report.createdAt)
    expect([...times].sort()).toEqual(times)
    expect((await admin.get('/api/reports?status=nonsense')).status).toBe(400)
  })

  it('dismisses a report once, announcing it', async () => {
    const probe = await startEventProbe(Topics.reports)
    try {
      const postId = await app.announcePost(ownerId, 'Harmless job')
      const filed = await reporter.post('/api/reports/posts', { postId, type: 'other' })
      expect((await admin.patch(`/api/reports/${filed.body._id}`, { action: 'ban' })).status).toBe(
        400,
      )
      const dismissed = await admin.patch(`/api/reports/${filed.body._id}`, { action: 'dismiss' })
      expect(dismissed.status).toBe(200)
      expect(dismissed.body).toMatchObject({ status: 'closed', action: 'dismiss' })
      const event = await probe.waitForEvent('report.resolved', filed.body._id, EVENT_WAIT_MS)
      expect(event.data).toEqual({
        reportId: filed.body._id,
        targetType: 'post',
        targetId: postId,
        action: 'dismiss',
      })
      const twice = await editor.patch(`/api/reports/${filed.body._id}`, { action: 'take-down' })
      expect(twice.status).toBe(409)
      expect(twice.body.message).toBe(Messages.reports.alreadyClosed)
      const unknown = await admin.patch('/api/reports/0123456789abcdef01234567', {
        action: 'dismiss',
      })
      expect(unknown.status).toBe(404)
      expect(unknown.body.message).toBe(Messages.reports.reportNotFound)
    } finally {
      await probe.stop()
    }
  })

  it('takes content down closing every open report of it, one report.resolved each', async () => {
    const probe = await startEventProbe(Topics.reports)
    try {
      const postId = await app.announcePost(ownerId, 'Fraudulent job')
      const second = app.clientFor(await app.registerUser('Sue', 'Second'))
      const first = await reporter.post('/api/reports/posts', { postId, type: 'scam' })
      await second.post('/api/reports/posts', { postId, type: 'scam' })
      const details = await admin.get(`/api/reports/${first.body._id}`)
      expect(details.body.openReportsOnTarget).toBe(2)

      const taken = await admin.patch(`/api/reports/${first.body._id}`, { action: 'take-down' })
      expect(taken.status).toBe(200)
      const closed = await reportsOn(postId)
      expect(closed.map((report) => [report.status, report.action])).toEqual([
        ['closed', 'take-down'],
        ['closed', 'take-down'],
      ])
      await waitFor(
        () =>
          probe.events.filter(
            (e) =>
              e.type === 'report.resolved' &&
              (e.data as { targetId: string; action: string }).targetId === postId &&
              (e.data as { action: string }).action === 'take-down',
          ).length === 2,
        { timeoutMs: EVENT_WAIT_MS, what: 'two report.resolved take-downs' },
      )
    } finally {
      await probe.stop()
    }
  })

  it('closes the open reports of a deleted post, and forgets a purged user', async () => {
    const postId = await app.announcePost(ownerId, 'Deleted later')
    await reporter.post('/api/reports/posts', { postId, type: 'other' })
    await app.deletePost(postId, ownerId, 'Deleted later')
    await waitFor(async () => (await reportsOn(postId))[0]?.status === 'closed', {
      timeoutMs: EVENT_WAIT_MS,
      what: 'report of the deleted post closed',
    })
    expect((await reportsOn(postId))[0]?.action).toBe('target-deleted')

    const leaverId = await app.registerUser('Lea', 'Leaver')
    const leaver = app.clientFor(leaverId)
    await app.saveWorkerProfile(leaverId)
    const leaversPost = await app.announcePost(leaverId, 'Leaver post')
    await leaver.post('/api/reports/people', { reportedId: workerId, type: 'other' })
    await reporter.post('/api/reports/posts', { postId: leaversPost, type: 'other' })
    await reporter.post('/api/reports/people', { reportedId: leaverId, type: 'other' })
    await app.purgeUser(leaverId)
    await waitFor(
      async () => {
        const all = await app.db.collection(REPORTS_COLLECTION).find({}).toArray()
        return !JSON.stringify(all).includes(leaverId)
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'reports by and about the leaver removed' },
    )
    expect(await reportsOn(workerId)).toHaveLength(1)
  })
})
