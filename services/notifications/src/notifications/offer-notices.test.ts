import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { infraEnv, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

async function mailSubjectsTo(address: string): Promise<string[]> {
  const query = encodeURIComponent(`to:${address}`)
  const answer = await fetch(`${infraEnv().mailApiUrl}/api/v1/search?query=${query}`)
  return ((await answer.json()) as { messages: Array<{ Subject: string }> }).messages.map(
    (mail) => mail.Subject,
  )
}

describe('notifications service: each step of an offer tells the other side (real FerretDB, Kafka, SMTP)', () => {
  let app: NotificationsTestApp

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_offers')
    await app.caughtUp()
  }, 600_000)
  afterAll(async () => {
    await app?.stop()
  })

  /** The ids and names every event about one request carries. */
  const request = (ownerId: string, requesterId: string) => ({
    requestId: new ObjectId().toHexString(),
    postId: new ObjectId().toHexString(),
    postTitle: 'Paint a fence',
    ownerId,
    requesterId,
    requesterName: 'Wanda Worker',
    status: 'pending' as const,
  })
  const terms = (amount: number, unit: 'fixed' | 'hour' = 'fixed') => ({
    amount,
    unit,
    note: '',
    proposedTime: '',
  })

  it('stores, pushes and mails the offer, the counter, its answer and the agreed amount', async () => {
    const owner = await app.registerUser('Olga')
    const worker = await app.registerUser('Wanda')
    const ownerSocket = await app.listen(owner.userId)
    const workerSocket = await app.listen(worker.userId)
    try {
      const ids = request(owner.userId, worker.userId)
      const event = <T extends Parameters<typeof newEvent>[0]>(
        type: T,
        actorId: string,
        data: object,
      ) => newEvent(type, { aggregateId: ids.requestId, actorId, data: data as never })
      await publishEvent(
        Topics.jobsRequests,
        event('job-request.created', worker.userId, { ...ids, offer: terms(80.5) }),
      )
      await publishEvent(
        Topics.jobsRequests,
        event('job-request.countered', owner.userId, { ...ids, counter: terms(70) }),
      )
      await publishEvent(
        Topics.jobsRequests,
        event('job-request.counter-answered', worker.userId, {
          ...ids,
          answer: 'accepted',
          counter: terms(70),
        }),
      )
      await publishEvent(
        Topics.jobsRequests,
        event('job-request.decided', owner.userId, {
          ...ids,
          status: 'accepted',
          agreed: { amount: 70, unit: 'fixed' },
        }),
      )
      await app.waitForStored(owner.userId, 2)
      await app.waitForStored(worker.userId, 2)
      const ownerNotices = (await app.storedFor(owner.userId)).map((n) => [n.kind, n.message])
      expect(ownerNotices).toEqual(
        expect.arrayContaining([
          [
            'post-request',
            'Wanda Worker sent a request for your post "Paint a fence" with an offer of $80.50',
          ],
          ['post-request', 'Wanda Worker accepted your counter-offer of $70 for "Paint a fence"'],
        ]),
      )
      const workerNotices = (await app.storedFor(worker.userId)).map((n) => [n.kind, n.message])
      expect(workerNotices).toEqual(
        expect.arrayContaining([
          ['request-status', 'The owner of "Paint a fence" made a counter-offer: $70'],
          ['request-status', 'Your request for "Paint a fence" was accepted. Agreed amount: $70'],
        ]),
      )
      // Live: each side's socket got its own two, and nothing of the other's.
      const pushed = (socket: typeof ownerSocket) =>
        socket
          .of<{ notification: { message: string } }>('notification')
          .map((payload) => payload.notification.message)
      await waitFor(() => pushed(ownerSocket).length >= 2 && pushed(workerSocket).length >= 2, {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the live pushes of the offer notices',
      })
      expect(pushed(ownerSocket).some((text) => text.includes('made a counter-offer'))).toBe(false)
      expect(pushed(workerSocket).some((text) => text.includes('with an offer of'))).toBe(false)
      // Mail, with the default preferences (e-mails on).
      const mails = await waitFor(
        async () => {
          const found = await mailSubjectsTo(worker.email)
          return found.length >= 2 && found
        },
        { timeoutMs: EVENT_WAIT_MS, what: `the offer mails to ${worker.email}` },
      )
      expect(mails).toEqual(
        expect.arrayContaining(['The owner of "Paint a fence" made a counter-offer: $70']),
      )
    } finally {
      ownerSocket.socket.disconnect()
      workerSocket.socket.disconnect()
    }
  })

  it('follows the request preferences: a worker who switched decisions off is not told of a counter', async () => {
    const owner = await app.registerUser('Oscar')
    const worker = await app.registerUser('Willa')
    await app.clientFor(worker.userId).put('/api/notifications/preferences', {
      requestStatusEnabled: false,
    })
    const ids = request(owner.userId, worker.userId)
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.countered', {
        aggregateId: ids.requestId,
        actorId: owner.userId,
        data: { ...ids, counter: terms(25, 'hour') },
      }),
    )
    // A later notice of a kind still on arrives (same key, so same partition, in order): the
    // counter's was judged before it.
    await publishEvent(
      Topics.jobsRequests,
      newEvent('job-request.created', {
        aggregateId: ids.requestId,
        actorId: owner.userId,
        data: { ...request(worker.userId, owner.userId), requesterName: 'Oscar Worker' },
      }),
    )
    await app.waitForStored(worker.userId, 1)
    expect((await app.storedFor(worker.userId)).map((n) => n.kind)).toEqual(['post-request'])
  })
})
