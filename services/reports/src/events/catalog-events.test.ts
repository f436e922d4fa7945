import { Topics, type DomainEvent, type EventData } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { PROCESSED_EVENTS_COLLECTION, newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { REPORTS_COLLECTION, type ReportDocument } from '../reports/report-document'
import {
  ADMIN_ROLES,
  EVENT_WAIT_MS,
  startReportsTestApp,
  type ReportsTestApp,
} from '../test/reports-test-app'

/**
 * The reports service's handlers of other services' events (post.deleted, user.deleted and
 * the catalog's post.* and people events) under at-least-once delivery: the same event twice
 * (two relays), and the same fact twice under two ids (the case the ledger cannot catch).
 */
describe('reports service: event handlers, delivered more than once (real FerretDB and Kafka)', () => {
  let app: ReportsTestApp
  type Client = ReturnType<ReportsTestApp['clientFor']>
  let ownerId: string
  let admin: Client
  let adminId: string

  beforeAll(async () => {
    app = await startReportsTestApp('reports_events')
    ownerId = await app.registerUser('Olga', 'Owner')
    adminId = await app.registerUser('Ada', 'Admin')
    admin = app.clientFor(adminId, undefined, ADMIN_ROLES)
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  const reports = () => app.db.collection<ReportDocument>(REPORTS_COLLECTION)
  const member = async (firstName: string) =>
    app.clientFor(await app.registerUser(firstName, 'Member'))

  /** Waits until the consumer group recorded the event as handled (its ledger entry). */
  async function handled(group: 'reports-posts' | 'reports-people', event: DomainEvent) {
    const ledger = app.db.collection<{ _id: string }>(PROCESSED_EVENTS_COLLECTION)
    const key = `${app.groupPrefix}${group}|${event.id}`
    await waitFor(async () => (await ledger.countDocuments({ _id: key })) === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: `${event.type} ${event.id} handled by ${group}`,
    })
  }

  const resolvedEventsIn = (report: ReportDocument | null) =>
    (report?.outbox ?? []).filter((event) => event.type === 'report.resolved')

  it('closes a deleted post’s open reports once, leaves closed ones alone and publishes nothing', async () => {
    const postId = await app.announcePost(ownerId, 'Deleted twice')
    const open = await (await member('Opal')).post('/api/reports/posts', { postId, type: 'scam' })
    const dismissed = await (
      await member('Dina')
    ).post('/api/reports/posts', {
      postId,
      type: 'other',
    })
    expect(
      (await admin.patch(`/api/reports/${dismissed.body._id}`, { action: 'dismiss' })).status,
    ).toBe(200)
    const dismissedBefore = await reports().findOne({ _id: dismissed.body._id })

    const deleted = newEvent('post.deleted', {
      aggregateId: postId,
      actorId: ownerId,
      data: { postId, ownerId, title: 'Deleted twice' },
    })
    // Two relays publish the same event; the ledger lets one through.
    await publishEvent(Topics.jobsPosts, deleted)
    await publishEvent(Topics.jobsPosts, deleted)
    await handled('reports-posts', deleted)
    const closed = await reports().findOne({ _id: open.body._id })
    expect(closed).toMatchObject({ status: 'closed', action: 'target-deleted', closedBy: null })

    // The same fact under a new id reaches the handler itself: nothing open is left to close.
    const again = newEvent('post.deleted', {
      aggregateId: postId,
      actorId: ownerId,
      data: { postId, ownerId, title: 'Deleted twice' },
    })
    await publishEvent(Topics.jobsPosts, again)
    await handled('reports-posts', again)

    const [afterOpen, afterDismissed] = await Promise.all([
      reports().findOne({ _id: open.body._id }),
      reports().findOne({ _id: dismissed.body._id }),
    ])
    expect(afterOpen).toMatchObject({ status: 'closed', action: 'target-deleted', closedBy: null })
    expect(afterOpen!.closedAt).toEqual(closed!.closedAt)
    expect(afterDismissed).toMatchObject({
      status: 'closed',
      action: 'dismiss',
      closedBy: adminId,
      closedAt: dismissedBefore!.closedAt,
    })
    // Nothing is left to take down, so no report.resolved is written for the deleted post.
    expect(resolvedEventsIn(afterOpen)).toEqual([])
    expect(afterOpen!.outboxPending).not.toBe(true)
  })

  it('forgets a purged user once: what they filed, what was filed about them, and their name as moderator', async () => {
    const leaverId = await app.registerUser('Lea', 'Leaver')
    const leaver = app.clientFor(leaverId, undefined, ADMIN_ROLES)
    await app.saveWorkerProfile(leaverId)
    const workerId = await app.registerUser('Wim', 'Worker')
    await app.saveWorkerProfile(workerId)
    const reporter = await member('Remy')
    const leaversPost = await app.announcePost(leaverId, 'Leaver post')
    const othersPost = await app.announcePost(ownerId, 'Stays reported')

    const byLeaver = await leaver.post('/api/reports/people', {
      reportedId: workerId,
      type: 'other',
    })
    const onLeaversPost = await reporter.post('/api/reports/posts', {
      postId: leaversPost,
      type: 'scam',
    })
    const onLeaver = await reporter.post('/api/reports/people', {
      reportedId: leaverId,
      type: 'other',
    })
    const closedByLeaver = await reporter.post('/api/reports/posts', {
      postId: othersPost,
      type: 'other',
    })
    const onWorker = await reporter.post('/api/reports/people', {
      reportedId: workerId,
      type: 'scam',
    })
    expect(
      (await leaver.patch(`/api/reports/${closedByLeaver.body._id}`, { action: 'dismiss' })).status,
    ).toBe(200)

    const purge = newEvent('user.deleted', {
      aggregateId: leaverId,
      actorId: null,
      data: { userId: leaverId },
    })
    await publishEvent(Topics.peopleUsers, purge)
    await publishEvent(Topics.peopleUsers, purge)
    await handled('reports-people', purge)
    const purgeAgain = newEvent('user.deleted', {
      aggregateId: leaverId,
      actorId: null,
      data: { userId: leaverId },
    })
    await publishEvent(Topics.peopleUsers, purgeAgain)
    await handled('reports-people', purgeAgain)

    for (const gone of [byLeaver, onLeaversPost, onLeaver]) {
      expect(await reports().findOne({ _id: gone.body._id })).toBeNull()
    }
    expect(await reports().findOne({ _id: closedByLeaver.body._id })).toMatchObject({
      status: 'closed',
      action: 'dismiss',
      closedBy: null,
    })
    expect(await reports().findOne({ _id: onWorker.body._id })).toMatchObject({ status: 'open' })
    const everything = await reports().find({}).toArray()
    expect(JSON.stringify(everything)).not.toContain(leaverId)
  })

  it('keeps a take-down when an older version of the post arrives late', async () => {
    const postId = await app.announcePost(ownerId, 'Replayed post')
    const filed = await (await member('Pia')).post('/api/reports/posts', { postId, type: 'scam' })
    const original = await app.db
      .collection<{ _id: string; post: EventData<'post.created'> }>('post_catalog')
      .findOne({ _id: postId })
    await app.announcePost(ownerId, 'Replayed post', { postId, isOnline: false, takenDown: true })

    // The original post.created once more, as a replay from the start of the topic would bring it.
    const replay = newEvent('post.created', {
      aggregateId: postId,
      actorId: ownerId,
      data: original!.post,
    })
    await publishEvent(Topics.jobsPosts, replay)
    await handled('reports-posts', replay)

    expect((await admin.get(`/api/reports/${filed.body._id}`)).body.target).toMatchObject({
      takenDown: true,
    })
    const late = await (await member('Lou')).post('/api/reports/posts', { postId, type: 'scam' })
    expect(late.status).toBe(404)
    expect(late.body.message).toBe(Messages.reports.postNotFound)
  })
})
