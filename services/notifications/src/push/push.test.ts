import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, TEST_QUERY, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'
import {
  startTestPushService,
  type TestDevice,
  type TestPushService,
} from '../test/test-push-service'
import { PUSH_DEVICES_COLLECTION, PUSH_ENDPOINTS_COLLECTION } from './push-devices-repository'
import { VAPID_KEYS_COLLECTION } from './vapid-keys'

jest.setTimeout(180_000)

describe('Mobile Notifications: Web Push to the recipient devices', () => {
  let app: NotificationsTestApp
  let pushService: TestPushService
  let publicKey: string

  beforeAll(async () => {
    pushService = await startTestPushService()
    app = await startNotificationsTestApp('notifications_push', {
      PUSH_ALLOW_LOOPBACK_HTTP: 'true',
    })
    const owner = app.newUserId()
    publicKey = (await app.clientFor(owner).get('/api/notifications/push/public-key')).body
      .publicKey
  })

  afterAll(async () => {
    await app?.stop()
    await pushService?.stop()
  })

  afterEach(() => {
    expect(pushService.problems).toEqual([])
  })

  /** A registered user with Mobile Notifications on (or off) and the given types. */
  async function userWith(firstName: string, preferences: Record<string, boolean>) {
    const user = await app.registerUser(firstName)
    const saved = await app
      .clientFor(user.userId)
      .put('/api/notifications/preferences', preferences)
    expect(saved.status).toBe(200)
    return user
  }

  async function subscribe(userId: string, device: TestDevice) {
    const answer = await app
      .clientFor(userId)
      .post('/api/notifications/push/subscriptions', device.subscription)
    expect(answer.status).toBe(200)
    return answer.body as { devices: number }
  }

  async function unsubscribe(userId: string, endpoint: string) {
    return app.app.inject({
      method: 'DELETE',
      url: '/api/notifications/push/subscriptions',
      headers: { authorization: `Bearer ${app.tokenFor(userId)}` },
      payload: { endpoint },
    })
  }

  /** A request on the owner's post; answers the sentence its notification says. */
  async function requestOnPostOf(ownerId: string, postTitle: string) {
    const event = app.jobRequestEvent('job-request.created', {
      ownerId,
      requesterId: new ObjectId().toHexString(),
      postTitle,
    })
    await publishEvent(Topics.jobsRequests, event)
    return { event, body: `Wanda Worker sent a request for your post "${postTitle}"` }
  }

  const bodies = (device: TestDevice) =>
    device.received.map((payload) => (payload as { body: string }).body)

  /**
   * Waits until the device received the push saying `body`. Notifications of one recipient
   * are handled in order (one partition per user), so once a later one arrived an earlier
   * one that did not never will.
   */
  const waitForPush = (device: TestDevice, body: string) =>
    waitFor(async () => bodies(device).includes(body), {
      timeoutMs: EVENT_WAIT_MS,
      what: `push "${body}"`,
    })

  it('answers one VAPID public key, the one kept in the database for every instance', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65)
    const stored = await app.db.collection(VAPID_KEYS_COLLECTION).findOne({})
    expect(stored?.publicKey).toBe(publicKey)
    const anotherUser = app.clientFor(app.newUserId())
    expect((await anotherUser.get('/api/notifications/push/public-key')).body).toEqual({
      publicKey,
    })
    expect((await app.clientFor(null).get('/api/notifications/push/public-key')).status).toBe(401)
  })

  it('pushes the notification once, encrypted for the device and signed with the key', async () => {
    const owner = await userWith('Olga', { mobileEnabled: true })
    const phone = pushService.newDevice()
    expect(await subscribe(owner.userId, phone)).toEqual({ devices: 1 })

    const first = await requestOnPostOf(owner.userId, 'Move a piano')
    await waitForPush(phone, first.body)
    const [stored] = await app.storedFor(owner.userId)
    expect(phone.received).toEqual([
      {
        title: 'Marketplace',
        body: first.body,
        link: '/settings-employer-requests',
        tag: stored?._id,
      },
    ])
    expect([...pushService.signers]).toEqual([publicKey])

    // The same event again, and its notification.created published twice (an outbox relay
    // and a sweep may both publish it): nothing more is pushed.
    await publishEvent(Topics.jobsRequests, first.event)
    await publishEvent(
      Topics.notifications,
      newEvent('notification.created', {
        aggregateId: owner.userId,
        actorId: null,
        data: {
          notificationId: String(stored?._id),
          userId: owner.userId,
          kind: 'post-request',
          message: first.body,
          link: '/settings-employer-requests',
          createdAt: new Date().toISOString(),
          unreadCount: 1,
        },
      }),
    )
    const next = await requestOnPostOf(owner.userId, 'Paint a fence')
    await waitForPush(phone, next.body)
    expect(bodies(phone)).toEqual([first.body, next.body])
  })

  it('pushes nothing while the channel is off, and nothing of a type switched off', async () => {
    const owner = await userWith('Nadia', { mobileEnabled: false })
    const phone = pushService.newDevice()
    await subscribe(owner.userId, phone)
    const whileOff = await requestOnPostOf(owner.userId, 'Channel off')
    await app.waitForStored(owner.userId, 1)
    // Its notification.created published and read by every group before the channel is on.
    await waitFor(async () => !(await app.storedFor(owner.userId))[0]?.outboxPending, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'notification.created published',
    })
    await app.caughtUp()

    await app.clientFor(owner.userId).put('/api/notifications/preferences', {
      mobileEnabled: true,
      requestStatusEnabled: false,
    })
    const decided = app.jobRequestEvent('job-request.decided', {
      ownerId: new ObjectId().toHexString(),
      requesterId: owner.userId,
      postTitle: 'Type off',
      status: 'accepted',
    })
    await publishEvent(Topics.jobsRequests, decided)
    const marker = await requestOnPostOf(owner.userId, 'Channel on')
    await waitForPush(phone, marker.body)
    expect(bodies(phone)).toEqual([marker.body])
    expect(bodies(phone)).not.toContain(whileOff.body)
  })

  it('forgets a device the push service reports gone, and pushes to the others', async () => {
    const owner = await userWith('Gina', { mobileEnabled: true })
    const [laptop, phone] = [pushService.newDevice(), pushService.newDevice()]
    await subscribe(owner.userId, laptop)
    expect(await subscribe(owner.userId, phone)).toEqual({ devices: 2 })
    laptop.markGone()

    const first = await requestOnPostOf(owner.userId, 'Rake leaves')
    await waitForPush(phone, first.body)
    await waitFor(
      async () => {
        const doc = await app.db
          .collection(PUSH_DEVICES_COLLECTION)
          .findOne({ _id: owner.userId as never })
        return Object.keys(doc?.devices ?? {}).length === 1
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'the gone device forgotten' },
    )
    expect(laptop.requests).toBe(1)

    const second = await requestOnPostOf(owner.userId, 'Mow a lawn')
    await waitForPush(phone, second.body)
    // Never asked again: the gone device had no second request.
    expect(laptop.requests).toBe(1)
    expect(laptop.received).toEqual([])
  })

  it('stops pushing to a device its user removed, and to one another user took over', async () => {
    const owner = await userWith('Rita', { mobileEnabled: true })
    const other = await userWith('Omar', { mobileEnabled: true })
    const [tablet, shared, phone] = [
      pushService.newDevice(),
      pushService.newDevice(),
      pushService.newDevice(),
    ]
    for (const device of [tablet, shared, phone]) await subscribe(owner.userId, device)

    // Only the caller's own device is removed: another user's try changes nothing.
    expect((await unsubscribe(other.userId, tablet.subscription.endpoint)).json()).toEqual({
      removed: false,
    })
    expect((await unsubscribe(owner.userId, tablet.subscription.endpoint)).json()).toEqual({
      removed: true,
    })
    // The shared browser signs in as Omar and turns the channel on: it is his now.
    expect(await subscribe(other.userId, shared)).toEqual({ devices: 1 })

    const mine = await requestOnPostOf(owner.userId, 'Wash a car')
    await waitForPush(phone, mine.body)
    const his = await requestOnPostOf(other.userId, 'Fix a tap')
    await waitForPush(shared, his.body)
    expect(tablet.received).toEqual([])
    expect(bodies(shared)).toEqual([his.body])
  })

  it('keeps at most 10 devices, letting the one subscribed longest ago go', async () => {
    const owner = await userWith('Tess', { mobileEnabled: true })
    const devices = Array.from({ length: 11 }, () => pushService.newDevice())
    const counts: number[] = []
    for (const device of devices) counts.push((await subscribe(owner.userId, device)).devices)
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10])
    // Subscribing again renews, it does not add.
    expect(await subscribe(owner.userId, devices[10]!)).toEqual({ devices: 10 })

    const request = await requestOnPostOf(owner.userId, 'Walk a dog')
    for (const device of devices.slice(1)) await waitForPush(device, request.body)
    expect(devices[0]!.requests).toBe(0)
  })

  it('refuses subscriptions that are no push service URL or carry malformed keys', async () => {
    const client = app.clientFor(app.newUserId())
    const good = pushService.newDevice().subscription
    const cases: Array<[unknown, string]> = [
      [{ ...good, endpoint: 'not a url' }, 'The push subscription endpoint must be a URL'],
      [
        { ...good, endpoint: 'http://fcm.googleapis.com/fcm/send/abc' },
        'The push subscription endpoint must be an https URL',
      ],
      [
        { ...good, endpoint: 'https://169.254.169.254/latest/meta-data' },
        'The push subscription endpoint must belong to a browser push service, not 169.254.169.254',
      ],
      [
        { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(64, 4).toString('base64url') } },
        'keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)',
      ],
      [
        { ...good, keys: { ...good.keys, auth: 'too-short' } },
        'keys.auth must be a 16-byte authentication secret (base64url)',
      ],
    ]
    for (const [body, message] of cases) {
      const answer = await client.post('/api/notifications/push/subscriptions', body)
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({ message, code: 'INVALID_PUSH_SUBSCRIPTION' })
    }
    expect((await client.post('/api/notifications/push/subscriptions', { keys: {} })).status).toBe(
      400,
    )
    // A real push service's endpoint is accepted as it is.
    const fcm = await client.post('/api/notifications/push/subscriptions', {
      ...good,
      endpoint: 'https://fcm.googleapis.com/fcm/send/device-token',
    })
    expect(fcm.status).toBe(200)
    const guest = await app.clientFor(null).post('/api/notifications/push/subscriptions', good)
    expect(guest.status).toBe(401)
  })

  it("forgets the user's devices when the account is purged", async () => {
    const owner = await userWith('Pam', { mobileEnabled: true })
    const phone = pushService.newDevice()
    await subscribe(owner.userId, phone)
    const endpoints = app.db.collection(PUSH_ENDPOINTS_COLLECTION)
    expect(await endpoints.countDocuments({ userId: owner.userId }, TEST_QUERY)).toBe(1)

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', {
        aggregateId: owner.userId,
        actorId: owner.userId,
        data: { userId: owner.userId },
      }),
    )
    await waitFor(
      async () =>
        (await app.db
          .collection(PUSH_DEVICES_COLLECTION)
          .findOne({ _id: owner.userId as never })) === null,
      { timeoutMs: EVENT_WAIT_MS, what: 'push devices purged' },
    )
    expect(await endpoints.countDocuments({ userId: owner.userId }, TEST_QUERY)).toBe(0)
  })
})
