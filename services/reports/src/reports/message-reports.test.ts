import { ObjectId } from 'mongodb'
import { Topics, type DomainEvent, type EventData } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { PROCESSED_EVENTS_COLLECTION, newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import {
  ADMIN_ROLES,
  EVENT_WAIT_MS,
  startReportsTestApp,
  type ReportsTestApp,
} from '../test/reports-test-app'
import { REPORTS_COLLECTION, type ReportDocument } from './report-document'

const MINUTE_MS = 60 * 1000

/**
 * Messages are reported in the conversations service, which publishes
 * message.reported with an excerpt of the conversation; the queue shows them beside posts and
 * people, and a moderator's decision goes back as report.resolved naming the message.
 */
describe('reports service: reported messages (real FerretDB and Kafka)', () => {
  let app: ReportsTestApp
  type Client = ReturnType<ReportsTestApp['clientFor']>
  let reporterId: string
  let senderId: string
  let admin: Client
  let adminId: string

  beforeAll(async () => {
    app = await startReportsTestApp('reports_messages')
    reporterId = await app.registerUser('Rosa', 'Reporter')
    senderId = await app.registerUser('Sam', 'Sender')
    adminId = await app.registerUser('Ada', 'Admin')
    admin = app.clientFor(adminId, undefined, ADMIN_ROLES)
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  const reports = () => app.db.collection<ReportDocument>(REPORTS_COLLECTION)
  const hex = () => new ObjectId().toHexString()

  /** A conversation of three messages, the sender's in the middle reported, as conversations publishes it. */
  function messageReported(
    fields: Partial<EventData<'message.reported'>> = {},
  ): DomainEvent<'message.reported'> {
    const conversationId = fields.conversationId ?? `pr:${hex()}`
    const messageId = fields.messageId ?? `${conversationId}:2`
    const at = Date.now()
    const data: EventData<'message.reported'> = {
      reportId: hex(),
      messageId,
      conversationId,
      reporterId,
      senderId,
      reason: 'scam',
      description: '  Asked for gift cards  ',
      excerpt: [
        {
          messageId: `${conversationId}:1`,
          senderName: 'Rosa Reporter',
          text: 'Hi, is the moving job still open?',
          sentAt: new Date(at - 3 * MINUTE_MS).toISOString(),
        },
        {
          messageId,
          senderName: 'Sam Sender',
          text: 'Yes. Pay the deposit in gift cards first.',
          sentAt: new Date(at - 2 * MINUTE_MS).toISOString(),
        },
        {
          messageId: `${conversationId}:3`,
          senderName: 'Rosa Reporter',
          text: 'No, thank you.',
          sentAt: new Date(at - MINUTE_MS).toISOString(),
        },
      ],
      createdAt: new Date(at).toISOString(),
      ...fields,
    }
    return newEvent('message.reported', {
      aggregateId: data.conversationId,
      actorId: data.reporterId,
      data,
    })
  }

  async function handled(event: DomainEvent) {
    const ledger = app.db.collection<{ _id: string }>(PROCESSED_EVENTS_COLLECTION)
    const key = `${app.groupPrefix}reports-messages|${event.id}`
    await waitFor(async () => (await ledger.countDocuments({ _id: key })) === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: `${event.type} ${event.id} handled`,
    })
  }

  /** Publishes the report as conversations does and waits until the queue holds it. */
  async function reported(fields: Partial<EventData<'message.reported'>> = {}) {
    const event = messageReported(fields)
    await publishEvent(Topics.conversations, event)
    await waitFor(async () => (await reports().findOne({ _id: event.data.reportId })) !== null, {
      timeoutMs: EVENT_WAIT_MS,
      what: `the report of ${event.data.messageId}`,
    })
    return event
  }

  it('shows a reported message with the conversation around it, oldest first, the reported one marked', async () => {
    const event = await reported()
    const { data } = event

    const view = await admin.get(`/api/reports/${data.reportId}`)
    expect(view.status).toBe(200)
    expect(view.body).toEqual({
      _id: data.reportId,
      targetType: 'message',
      targetId: data.messageId,
      type: 'scam',
      reasonLabel: 'Scam/Fraud',
      description: 'Asked for gift cards',
      status: 'open',
      reporter: { _id: reporterId, name: 'Rosa Reporter' },
      target: {
        message: {
          _id: data.messageId,
          conversationId: data.conversationId,
          sender: { _id: senderId, name: 'Sam Sender' },
          excerpt: data.excerpt.map((message) => ({
            _id: message.messageId,
            senderName: message.senderName,
            text: message.text,
            sentAt: message.sentAt,
            reported: message.messageId === data.messageId,
          })),
        },
        takenDown: false,
      },
      openReportsOnTarget: 1,
      createdAt: data.createdAt,
      ageHours: 0,
      reviewDueAt: new Date(Date.parse(data.createdAt) + 24 * 60 * MINUTE_MS).toISOString(),
      overdue: false,
      closedAt: null,
      closedBy: null,
      action: null,
    })
    // The queue shows it as the details do (on whichever page its age puts it).
    const inQueue = []
    for (let page = 1; ; page += 1) {
      const queue = await admin.get(`/api/reports?status=open&page=${page}`)
      expect(queue.status).toBe(200)
      inQueue.push(
        ...queue.body.reports.filter((report: { _id: string }) => report._id === data.reportId),
      )
      if (page >= queue.body.pagination.totalPages) break
    }
    expect(inQueue).toEqual([view.body])
  })

  it('orders an excerpt that arrives out of order, and names a sender people do not know by the excerpt', async () => {
    const stranger = app.newUserId()
    const base = messageReported({ senderId: stranger })
    const [first, second, third] = base.data.excerpt
    const event = await reported({
      ...base.data,
      reportId: hex(),
      excerpt: [third!, first!, { ...second!, senderName: 'Stan Stranger' }],
    })

    const view = await admin.get(`/api/reports/${event.data.reportId}`)
    expect(view.body.target.message.sender).toEqual({ _id: stranger, name: 'Stan Stranger' })
    expect(view.body.target.message.excerpt.map((m: { _id: string }) => m._id)).toEqual([
      first!.messageId,
      second!.messageId,
      third!.messageId,
    ])
  })

  it('files a report once, however often it is delivered', async () => {
    const event = await reported()
    // The same event again (a second relay), and the same report under a new event id.
    const again = newEvent('message.reported', {
      aggregateId: event.aggregateId,
      actorId: event.actorId,
      data: event.data,
    })
    await publishEvent(Topics.conversations, event)
    await publishEvent(Topics.conversations, again)
    await handled(again)

    expect(await reports().countDocuments({ targetId: event.data.messageId })).toBe(1)
  })

  it('files a reason it does not know as "other" rather than losing the report', async () => {
    const event = await reported({ reason: 'spam', description: null })

    const view = await admin.get(`/api/reports/${event.data.reportId}`)
    expect(view.body).toMatchObject({ type: 'other', reasonLabel: 'Other', description: '' })
  })

  it('never shows a member a reported message, the reporter included', async () => {
    const event = await reported()

    for (const client of [app.clientFor(reporterId), app.clientFor(senderId)]) {
      const answer = await client.get(`/api/reports/${event.data.reportId}`)
      expect(answer.status).toBe(403)
      expect(answer.body.message).toBe(Messages.reports.moderatorsOnly)
      expect(answer.text).not.toContain('gift cards')
    }
  })

  it('takes a message down with a report.resolved naming the message, shown hidden once conversations hid it', async () => {
    const { data } = await reported()
    const probe = await startEventProbe(Topics.reports)
    try {
      const taken = await admin.patch(`/api/reports/${data.reportId}`, { action: 'take-down' })
      expect(taken.status).toBe(200)
      expect(taken.body).toMatchObject({
        targetType: 'message',
        status: 'closed',
        action: 'take-down',
        closedBy: adminId,
        openReportsOnTarget: 0,
      })
      const event = await probe.waitForEvent('report.resolved', data.reportId, EVENT_WAIT_MS)
      expect(event.actorId).toBe(adminId)
      expect(event.data).toEqual({
        reportId: data.reportId,
        targetType: 'message',
        targetId: data.messageId,
        action: 'take-down',
      })
    } finally {
      await probe.stop()
    }

    // conversations hides it from both parties and says so.
    await publishEvent(
      Topics.conversations,
      newEvent('message.taken-down', {
        aggregateId: data.conversationId,
        actorId: null,
        data: {
          messageId: data.messageId,
          conversationId: data.conversationId,
          senderId,
          recipientId: reporterId,
          postTitle: 'Move a piano',
        },
      }),
    )
    await waitFor(
      async () => (await admin.get(`/api/reports/${data.reportId}`)).body.target.takenDown,
      { timeoutMs: EVENT_WAIT_MS, what: 'the message shown taken down' },
    )
    // Closed ones come most recent first: it leads the closed queue.
    const closed = await admin.get('/api/reports?status=closed')
    expect(
      closed.body.reports.find((report: { _id: string }) => report._id === data.reportId),
    ).toMatchObject({ target: { message: { _id: data.messageId }, takenDown: true } })
  })

  it('dismisses a message report with a report.resolved dismiss: the message stays', async () => {
    const { data } = await reported()
    const probe = await startEventProbe(Topics.reports)
    try {
      const dismissed = await admin.patch(`/api/reports/${data.reportId}`, { action: 'dismiss' })
      expect(dismissed.status).toBe(200)
      expect(dismissed.body).toMatchObject({
        action: 'dismiss',
        target: { message: { _id: data.messageId }, takenDown: false },
      })
      const event = await probe.waitForEvent('report.resolved', data.reportId, EVENT_WAIT_MS)
      expect(event.data).toEqual({
        reportId: data.reportId,
        targetType: 'message',
        targetId: data.messageId,
        action: 'dismiss',
      })
    } finally {
      await probe.stop()
    }
    const late = await admin.patch(`/api/reports/${data.reportId}`, { action: 'take-down' })
    expect(late.status).toBe(409)
    expect(late.body.message).toBe(Messages.reports.alreadyClosed)
  })

  it('removes a message report, excerpt and all, when either party is purged', async () => {
    const bySender = await reported({ senderId: await app.registerUser('Pat', 'Purged') })
    const purgedReporter = await app.registerUser('Quinn', 'Purged')
    const byReporter = await reported({ reporterId: purgedReporter })

    await app.purgeUser(bySender.data.senderId)
    await app.purgeUser(purgedReporter)

    for (const { data } of [bySender, byReporter]) {
      await waitFor(async () => (await reports().findOne({ _id: data.reportId })) === null, {
        timeoutMs: EVENT_WAIT_MS,
        what: `the report ${data.reportId} removed`,
      })
    }
    expect(await reports().countDocuments({ targetId: bySender.data.messageId })).toBe(0)
  })
})
