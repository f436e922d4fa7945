import { Topics } from '@marketplace/contracts/events'
import { publishEvent } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'
import { createBlockAnnouncer } from '@marketplace/read-models/testing'

/**
 * Blocking in notifications (docs/blocking.md): a notice whose actor the recipient blocked,
 * or was blocked by, is dropped (not stored, not pushed, not mailed), both ways; others'
 * notices still arrive, and an unblock lets the next ones through. A stored notice names its
 * actor (`actorId`), which the web app's "Block" on a notification uses.
 */
describe('notifications service: blocking (real FerretDB and Kafka)', () => {
  let app: NotificationsTestApp
  let announce: ReturnType<typeof createBlockAnnouncer>

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_blocking')
    announce = createBlockAnnouncer(app.db, { timeoutMs: EVENT_WAIT_MS })
    await app.caughtUp()
  }, 600_000)
  afterAll(async () => {
    await app?.stop()
  })

  it('drops notices from a blocked person and to them, keeps the others, and unblocking lets new ones through', async () => {
    const owner = await app.registerUser('Odile')
    const worker = await app.registerUser('Willa')
    const bystander = await app.registerUser('Bram')
    const ownerClient = app.clientFor(owner.userId)

    await announce('user.blocked', owner.userId, worker.userId)
    // One key for the three request events: one partition, handled in the order sent, so
    // once the last is stored the two before it were handled too.
    const requestId = app.newUserId()

    // From the blocked worker to the blocker: a request on the blocker's post.
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', {
        ownerId: owner.userId,
        requesterId: worker.userId,
        postTitle: 'Dropped one',
        requestId,
      }),
    )
    // From the blocker to the blocked worker (the other direction): a decision.
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.decided', {
        ownerId: owner.userId,
        requesterId: worker.userId,
        postTitle: 'Dropped two',
        status: 'accepted',
        requestId,
      }),
    )
    // From someone else: stored as ever, after the two above on the same topic.
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', {
        ownerId: owner.userId,
        requesterId: bystander.userId,
        postTitle: 'Kept one',
        requesterName: 'Bram Bystander',
        requestId,
      }),
    )
    await app.waitForStored(owner.userId, 1)
    // A message from the blocked worker tells nobody either; the owner's message to the
    // bystander in the same conversation (one key, one partition) comes after it.
    const conversationId = `jr:${app.newUserId()}`
    await publishEvent(
      Topics.conversations,
      app.messageSentEvent({ conversationId, senderId: worker.userId, recipientId: owner.userId }),
    )
    await publishEvent(
      Topics.conversations,
      app.messageSentEvent({
        conversationId,
        senderId: owner.userId,
        recipientId: bystander.userId,
      }),
    )
    await app.waitForStored(bystander.userId, 1)
    const stored = await app.storedFor(owner.userId)
    expect(stored.map((n) => n.message)).toEqual([
      'Bram Bystander sent a request for your post "Kept one"',
    ])
    expect(stored[0]?.actorId).toBe(bystander.userId)
    const page = await ownerClient.get('/api/notifications')
    expect(page.body.notifications).toHaveLength(1)
    expect(page.body.notifications[0].actorId).toBe(bystander.userId)
    expect(await app.storedFor(worker.userId)).toEqual([])

    await announce('user.unblocked', owner.userId, worker.userId)
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', {
        ownerId: owner.userId,
        requesterId: worker.userId,
        postTitle: 'After unblocking',
      }),
    )
    await app.waitForStored(owner.userId, 2)
    expect((await app.storedFor(owner.userId)).map((n) => n.message)).toContain(
      'Wanda Worker sent a request for your post "After unblocking"',
    )
    // The messages the blocked worker sent meanwhile were never stored for the owner.
    expect(await app.storedFor(worker.userId)).toEqual([])
  }, 240_000)
})
