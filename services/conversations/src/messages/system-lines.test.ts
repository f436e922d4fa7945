import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
} from '../test/conversations-test-app'

interface Line {
  _id: string
  senderId: string
  text: string
  system?: true
}

describe('conversations service: system lines of offers (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_system_lines')
    await app.caughtUp()
  }, 600_000)
  afterAll(async () => {
    await app?.stop()
  })

  it('tells each step of an offer once, in order, as a line of no one that is never unread nor reportable', async () => {
    const workerId = await app.registerUser('Wanda', 'Worker')
    const ownerId = await app.registerUser('Olga', 'Owner')
    const requestId = new ObjectId().toHexString()
    const ids = {
      requestId,
      postId: new ObjectId().toHexString(),
      postTitle: 'Paint a fence',
      ownerId,
      requesterId: workerId,
      requesterName: 'Wanda Worker',
      status: 'pending' as const,
    }
    const terms = (amount: number) => ({
      amount,
      unit: 'fixed' as const,
      note: '',
      proposedTime: '',
    })
    const created = newEvent('job-request.created', {
      aggregateId: requestId,
      actorId: workerId,
      data: { ...ids, offer: { ...terms(80.5), proposedTime: 'Saturday' } },
    })
    const countered = newEvent('job-request.countered', {
      aggregateId: requestId,
      actorId: ownerId,
      data: { ...ids, counter: terms(70) },
    })
    const steps = [
      created,
      countered,
      // Redelivered: told once.
      countered,
      newEvent('job-request.counter-answered', {
        aggregateId: requestId,
        actorId: workerId,
        data: { ...ids, answer: 'accepted', counter: terms(70) },
      }),
      newEvent('job-request.decided', {
        aggregateId: requestId,
        actorId: ownerId,
        data: { ...ids, status: 'accepted', agreed: { amount: 70, unit: 'fixed' } },
      }),
    ]
    const probe = await startEventProbe(Topics.conversations)
    try {
      for (const step of steps) await publishEvent(Topics.jobsRequests, step)
      const conversationId = `jr:${requestId}`
      const worker = app.clientFor(workerId)
      const owner = app.clientFor(ownerId)
      const history = async (): Promise<Line[]> =>
        (await worker.get(`/api/conversations/${conversationId}/messages`)).body.items ?? []
      await waitFor(async () => (await history()).length >= 4, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the four system lines',
      })
      // A later message of the worker, so the redelivery had its chance to add a fifth line.
      const sent = await worker.post(`/api/conversations/${conversationId}/messages`, {
        text: 'See you Saturday',
      })
      expect(sent.status).toBe(201)
      const lines = (await owner.get(`/api/conversations/${conversationId}/messages`)).body
        .items as Line[]
      expect(
        lines.reverse().map((line) => [line.system ?? false, line.senderId, line.text]),
      ).toEqual([
        [true, '', 'Wanda Worker offered $80.50'],
        [true, '', 'The post owner made a counter-offer: $70'],
        [true, '', 'Wanda Worker accepted the counter-offer of $70'],
        [true, '', 'Request accepted. Agreed amount: $70'],
        [false, workerId, 'See you Saturday'],
      ])
      // Never unread: the owner's one unread message is the worker's text.
      const view = await owner.get(`/api/conversations/${conversationId}`)
      expect(view.body.unreadCount).toBe(1)
      expect(view.body.lastMessage.text).toBe('See you Saturday')
      // Not reportable, by either side.
      const report = await owner.post(
        `/api/conversations/${conversationId}/messages/${lines[1]!._id}/report`,
        { type: 'scam' },
      )
      expect(report.status).toBe(400)
      expect(report.body.message).toBe(CONVERSATION_MESSAGES.systemLineNotReportable)
      // A stranger sees nothing of it.
      const stranger = app.clientFor(await app.registerUser('Sam', 'Stranger'))
      const foreign = await stranger.get(`/api/conversations/${conversationId}/messages`)
      expect(foreign.status).toBe(404)
      expect(foreign.text).not.toContain('80.50')
      // No line announced a message (the notifications service tells each step itself).
      const announced = await probe.waitForEvent('message.sent', conversationId)
      expect((announced.data as { senderId: string }).senderId).toBe(workerId)
    } finally {
      await probe.stop()
    }
  }, 180_000)

  it('adds no line for a request without an offer, nor for a decision without an agreed amount', async () => {
    const workerId = await app.registerUser('Wes', 'Worker')
    const ownerId = await app.registerUser('Otto', 'Owner')
    const request = await app.requestPost(workerId, ownerId, 'No price job')
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.decided', {
        aggregateId: request.requestId,
        actorId: ownerId,
        data: {
          requestId: request.requestId,
          postId: request.postId,
          postTitle: 'No price job',
          ownerId,
          requesterId: workerId,
          requesterName: 'Wes Worker',
          status: 'accepted',
        },
      }),
    )
    // A later step of the same request (same key, so handled after the decision) that does
    // tell a line: once it is there, the opening and the decision were judged before it.
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.countered', {
        aggregateId: request.requestId,
        actorId: ownerId,
        data: {
          requestId: request.requestId,
          postId: request.postId,
          postTitle: 'No price job',
          ownerId,
          requesterId: workerId,
          requesterName: 'Wes Worker',
          status: 'accepted',
          counter: { amount: 45, unit: 'hour', note: '', proposedTime: '' },
        },
      }),
    )
    const worker = app.clientFor(workerId)
    const path = `/api/conversations/${request.conversationId}/messages`
    const items = await waitFor(
      async () => {
        const found = (await worker.get(path)).body.items as Line[]
        return found.length > 0 && found
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'the counter-offer line' },
    )
    expect(items.map((line) => line.text)).toEqual([
      'The post owner made a counter-offer: $45/hour',
    ])
  })
})
