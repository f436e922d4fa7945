import { randomUUID } from 'node:crypto'
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs'
import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { DEAD_LETTER_TOPIC, newEvent } from '@marketplace/service-kit'
import { TEST_QUERY, infraEnv, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  APP_URL,
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'
import {
  NOTIFICATION_BUCKETS_COLLECTION,
  NOTIFICATION_BUCKET_SIZE,
  bucketDocumentId,
  bucketOfSeq,
  countKey,
  itemKey,
  type BucketedNotification,
  type NotificationBucketDocument,
} from './notification-buckets'
import { NOTIFICATIONS_COLLECTION } from './notification-document'
import { createNotificationsRepository } from './notifications-repository'

interface MailSummary {
  ID: string
  Subject: string
  To: Array<{ Address: string }>
}

async function mailsTo(address: string): Promise<MailSummary[]> {
  const query = encodeURIComponent(`to:${address}`)
  const answer = await fetch(`${infraEnv().mailApiUrl}/api/v1/search?query=${query}`)
  return ((await answer.json()) as { messages: MailSummary[] }).messages
}

describe('notifications service: stored notices, preferences, mail (real FerretDB, Kafka, SMTP)', () => {
  let app: NotificationsTestApp
  let owner: { userId: string; email: string }
  let worker: { userId: string; email: string }

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications')
    // This run's groups are new: let them read the broker's history (every earlier suite's
    // events) before the tests publish theirs.
    await app.caughtUp()
    owner = await app.registerUser('Olga')
    worker = await app.registerUser('Wanda')
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  /**
   * A user with `total` notifications, written straight in the stored shape (numbered 1 to
   * `total`, every third one read): as the service leaves them after `total` events, without
   * sending them all through Kafka.
   */
  async function storeHistory(total: number) {
    const userId = app.newUserId()
    const start = Date.now() - total * 1000
    const notices = Array.from({ length: total }, (_, i) => {
      const seq = i + 1
      const notice: BucketedNotification = {
        _id: `history-${seq}:${userId}`,
        seq,
        kind: 'post-favorite',
        message: `Notice ${seq}`,
        link: '/settings-employer-jobs',
        isRead: seq % 3 === 0,
        createdAt: new Date(start + seq * 1000),
      }
      return notice
    })
    await app.db.collection(NOTIFICATIONS_COLLECTION).insertMany(
      notices.map((notice) => ({
        ...notice,
        userId,
        status: notice.isRead ? 'read' : 'unread',
      })) as never[],
    )
    const buckets = new Map<number, NotificationBucketDocument>()
    for (const notice of notices) {
      const bucket = bucketOfSeq(notice.seq)
      const doc = buckets.get(bucket) ?? {
        _id: bucketDocumentId(userId, bucket),
        userId,
        bucket,
        items: {},
      }
      doc.items[itemKey(notice.seq)] = notice
      buckets.set(bucket, doc)
    }
    await app.db
      .collection(NOTIFICATION_BUCKETS_COLLECTION)
      .insertMany([...buckets.values()] as never[])
    const counts = Object.fromEntries(
      [...buckets.values()].map((doc) => [countKey(doc.bucket), Object.keys(doc.items).length]),
    )
    await app.db.collection('recipients').insertOne({
      _id: userId,
      notificationsBucketed: true,
      notificationSeq: total,
      notificationBuckets: counts,
      unreadCount: notices.filter((notice) => !notice.isRead).length,
      updatedAt: new Date(),
    } as never)
    expect(buckets.size).toBe(Math.ceil(total / NOTIFICATION_BUCKET_SIZE))
    return { userId, total }
  }

  it('tells the right person, in a short sentence, once per event', async () => {
    const { userId: ownerId } = owner
    const { userId: workerId } = worker
    const created = app.jobRequestEvent('job-request.created', { ownerId, requesterId: workerId })
    await publishEvent(Topics.jobsRequests, created)
    // The same event delivered again makes no second notification.
    await publishEvent(Topics.jobsRequests, created)
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.decided', {
        ownerId,
        requesterId: workerId,
        status: 'accepted',
      }),
    )
    const people = (type: 'people-request.created' | 'people-request.decided', status: string) =>
      newEvent(type, {
        aggregateId: randomUUID(),
        actorId: ownerId,
        data: {
          requestId: randomUUID(),
          postId: randomUUID(),
          postTitle: 'Paint a fence',
          ownerId,
          ownerName: 'Olga Tester',
          workerId,
          workerName: 'Wanda Tester',
          status: status as 'pending',
        },
      })
    await publishEvent(Topics.peopleRequests, people('people-request.created', 'pending'))
    await publishEvent(Topics.peopleRequests, people('people-request.decided', 'rejected'))
    await publishEvent(
      Topics.favorites,
      newEvent('favorite.added', {
        aggregateId: randomUUID(),
        actorId: workerId,
        data: {
          favoriteId: randomUUID(),
          userId: workerId,
          userName: 'Wanda Tester',
          targetType: 'post',
          targetId: randomUUID(),
          targetOwnerId: ownerId,
          targetTitle: 'Clean a garage',
        },
      }),
    )

    await app.waitForStored(ownerId, 3)
    await app.waitForStored(workerId, 2)
    const ownerMessages = (await app.storedFor(ownerId)).map((n) => [n.kind, n.message, n.link])
    expect(ownerMessages).toEqual(
      expect.arrayContaining([
        [
          'post-request',
          'Wanda Worker sent a request for your post "Move a piano"',
          '/settings-employer-requests',
        ],
        [
          'request-status',
          'Wanda Tester declined your request for "Paint a fence"',
          '/settings-employer-workers-requested',
        ],
        [
          'post-favorite',
          'Wanda Tester saved your post "Clean a garage" to their favorites',
          '/settings-employer-jobs',
        ],
      ]),
    )
    const workerMessages = (await app.storedFor(workerId)).map((n) => n.message)
    expect(workerMessages).toEqual(
      expect.arrayContaining([
        'Your request for "Move a piano" was accepted',
        'Olga Tester is requesting you for "Paint a fence"',
      ]),
    )
    // Still three a moment later: the redelivery changed nothing.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await app.storedFor(ownerId)).toHaveLength(3)
  })

  it('announces nothing that happened more than a day ago (a replayed history is not news)', async () => {
    const late = await app.registerUser('Leo')
    const stale = app.jobRequestEvent('job-request.created', {
      ownerId: late.userId,
      requesterId: worker.userId,
      postTitle: 'Last month',
    })
    await publishEvent(Topics.jobsRequests, {
      ...stale,
      occurredAt: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toISOString(),
    })
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', {
        ownerId: late.userId,
        requesterId: worker.userId,
        postTitle: 'Today',
        requestId: stale.data.requestId,
      }),
    )
    await app.waitForStored(late.userId, 1)
    expect((await app.storedFor(late.userId)).map((n) => n.message)).toEqual([
      'Wanda Worker sent a request for your post "Today"',
    ])
  })

  it('serves the dropdown: pages, unread count, read one, read all, clear read', async () => {
    const reader = app.clientFor(owner.userId)
    const page = await reader.get('/api/notifications?page=1&limit=2')
    expect(page.status).toBe(200)
    expect(page.body.notifications).toHaveLength(2)
    expect(page.body.pagination).toEqual({ current: 1, pages: 2, total: 3 })
    expect(page.body.unreadCount).toBe(3)
    // `actorId` names who caused a notice, when someone other than its reader did.
    const { actorId, ...shown } = page.body.notifications[0] as Record<string, unknown>
    expect(shown).toEqual({
      _id: expect.any(String),
      kind: expect.any(String),
      message: expect.any(String),
      link: expect.stringMatching(/^\/settings-/),
      isRead: false,
      status: 'unread',
      createdAt: expect.any(String),
    })
    expect([undefined, worker.userId]).toContain(actorId)
    expect((await reader.get('/api/notifications')).body.notifications).toHaveLength(3)
    expect((await reader.get('/api/notifications?limit=500')).status).toBe(400)

    const first = page.body.notifications[0]._id as string
    // Someone else cannot read or mark it.
    const intruder = app.clientFor(worker.userId)
    const foreign = await intruder.patch(`/api/notifications/${encodeURIComponent(first)}/read`, {})
    expect(foreign.status).toBe(404)
    expect(foreign.body.message).toBe(Messages.notifications.notFound)

    const read = await reader.patch(`/api/notifications/${encodeURIComponent(first)}/read`, {})
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ unreadCount: 2 })
    expect((await reader.get('/api/notifications/unread-count')).body).toEqual({ count: 2 })
    const cleared = await reader.delete('/api/notifications/clear-read')
    expect(cleared.body).toEqual({ deleted: 1 })
    expect((await reader.patch('/api/notifications/mark-all-read', {})).body).toEqual({
      unreadCount: 0,
    })
    const after = await reader.get('/api/notifications')
    expect(after.body.notifications.map((n: { status: string }) => n.status)).toEqual([
      'read',
      'read',
    ])
    expect((await app.clientFor(null).get('/api/notifications')).status).toBe(401)
  })

  it('puts notifications stored before the buckets in buckets, once, on the first look', async () => {
    const userId = app.newUserId()
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000)
    // Written as the service stored them before the buckets: the notifications alone.
    const old = [1, 2, 3].map((minutes) => ({
      _id: `${randomUUID()}:${userId}`,
      userId,
      kind: 'post-request' as const,
      message: `Old notice ${minutes}`,
      link: '/settings-requests',
      isRead: minutes === 3,
      status: minutes === 3 ? ('read' as const) : ('unread' as const),
      createdAt: at(minutes),
    }))
    await app.db.collection(NOTIFICATIONS_COLLECTION).insertMany(old as never[])
    const buckets = app.db.collection<NotificationBucketDocument>(NOTIFICATION_BUCKETS_COLLECTION)
    expect(await buckets.findOne({ _id: bucketDocumentId(userId, 0) }, TEST_QUERY)).toBeNull()

    const reader = app.clientFor(userId)
    const page = await reader.get('/api/notifications?page=1&limit=10')
    expect(page.body.notifications.map((n: { message: string }) => n.message)).toEqual([
      'Old notice 1',
      'Old notice 2',
      'Old notice 3',
    ])
    expect(page.body.notifications.map((n: { status: string }) => n.status)).toEqual([
      'unread',
      'unread',
      'read',
    ])
    expect(page.body.unreadCount).toBe(2)
    const bucket = await buckets.findOne({ _id: bucketDocumentId(userId, 0) }, TEST_QUERY)
    // Numbered oldest first: the oldest is 1.
    expect(bucket?.items[itemKey(1)]?.message).toBe('Old notice 3')
    expect(Object.keys(bucket?.items ?? {})).toHaveLength(3)
    // A second look fills nothing again.
    expect((await reader.get('/api/notifications')).body.pagination.total).toBe(3)

    // Clearing the read ones takes them out of their bucket and off the total.
    expect((await reader.delete('/api/notifications/clear-read')).body).toEqual({ deleted: 1 })
    const after = await buckets.findOne({ _id: bucketDocumentId(userId, 0) }, TEST_QUERY)
    expect(Object.keys(after?.items ?? {})).toHaveLength(2)
    expect((await reader.get('/api/notifications')).body.pagination).toEqual({
      current: 1,
      pages: 1,
      total: 2,
    })
  })

  it("reports and stores a bucket's count right on the first look when a crash left it off", async () => {
    const { userId } = await storeHistory(30)
    const recipients = app.db.collection('recipients')
    const reader = app.clientFor(userId)
    const total = async () =>
      (await reader.get('/api/notifications?page=1&limit=10')).body.pagination.total
    expect(await total()).toBe(30)
    // The count of the user's only bucket never written (a crash right after listing).
    await recipients.updateOne({ _id: userId } as never, {
      $unset: { [`notificationBuckets.${countKey(0)}`]: '' },
    })
    const storedCount = async () =>
      (
        (await recipients.findOne({ _id: userId } as never, TEST_QUERY))?.notificationBuckets as
          Record<string, number> | undefined
      )?.[countKey(0)]
    expect(await total()).toBe(30)
    expect(await storedCount()).toBe(30)
    // One short (a crash after listing the latest notice).
    await recipients.updateOne({ _id: userId } as never, {
      $set: { [`notificationBuckets.${countKey(0)}`]: 29 },
    })
    expect(await total()).toBe(30)
    expect(await storedCount()).toBe(30)
    expect(await total()).toBe(30)
  })

  it('counts an older bucket again when its notice is delivered again after a crash between listing and counting', async () => {
    const { userId } = await storeHistory(60)
    const recipients = app.db.collection('recipients')
    const reader = app.clientFor(userId)
    const total = async () =>
      (await reader.get('/api/notifications?page=1&limit=10')).body.pagination.total
    // The crash: notice 30 was listed in bucket 0 but never counted. Page 1 reads only the
    // newest bucket, so looking does not set bucket 0 right.
    await recipients.updateOne({ _id: userId } as never, {
      $set: { [`notificationBuckets.${countKey(0)}`]: 49 },
    })
    expect(await total()).toBe(59)
    expect(await total()).toBe(59)
    // Kafka delivers the event again (its offset was not committed before the crash).
    const stored = await app.db
      .collection(NOTIFICATIONS_COLLECTION)
      .findOne({ _id: `history-30:${userId}` } as never, TEST_QUERY)
    const repository = createNotificationsRepository(app.db, { notifyOutbox: () => {} })
    expect(await repository.insert({ ...(stored as object), seq: 30 } as never, [])).toBe(false)
    expect(await total()).toBe(60)
  })

  it('counts a notice once when a page read settles its bucket between its listing and its count', async () => {
    const { userId } = await storeHistory(3)
    const recipients = app.db.collection('recipients')
    const reader = app.clientFor(userId)
    // The repository writes the count through a database whose head update waits for a gate:
    // the notice is in its bucket, not yet counted, when the user's page is read.
    let reachedCount!: () => void
    const countReached = new Promise<void>((resolve) => (reachedCount = resolve))
    let openGate!: () => void
    const gate = new Promise<void>((resolve) => (openGate = resolve))
    const heldDb = new Proxy(app.db, {
      get(target, property, receiver) {
        if (property !== 'collection') return Reflect.get(target, property, receiver)
        return (name: string) => {
          const collection = target.collection(name)
          if (name !== 'recipients') return collection
          return new Proxy(collection, {
            get(inner, key, innerReceiver) {
              if (key !== 'updateOne') return Reflect.get(inner, key, innerReceiver)
              return async (filter: never, update: Record<string, unknown>) => {
                if (JSON.stringify(update).includes('notificationBuckets')) {
                  reachedCount()
                  await gate
                }
                return inner.updateOne(filter, update as never)
              }
            },
          })
        }
      },
    })
    const repository = createNotificationsRepository(heldDb, { notifyOutbox: () => {} })
    const notice = {
      _id: `history-4:${userId}`,
      userId,
      kind: 'post-favorite',
      message: 'Notice 4',
      link: '/settings-employer-jobs',
      isRead: false,
      status: 'unread',
      createdAt: new Date(),
      seq: 4,
    }
    const inserting = repository.insert(notice as never, [])
    await countReached
    // The page read finds 4 notices in the bucket and the head counting 3: it sets 4.
    expect((await reader.get('/api/notifications?page=1&limit=10')).body.pagination.total).toBe(4)
    openGate()
    expect(await inserting).toBe(true)
    const head = await recipients.findOne({ _id: userId } as never, TEST_QUERY)
    expect(head?.notificationBuckets).toEqual({ [countKey(0)]: 4 })
    expect((await reader.get('/api/notifications?page=1&limit=10')).body.pagination.total).toBe(4)
  })

  it('serves a page, the unread count and a read in a fixed number of commands, at 1x and 10x the history', async () => {
    const small = await storeHistory(150)
    const large = await storeHistory(1500)
    const costs = async (user: { userId: string; total: number }) => {
      const reader = app.clientFor(user.userId)
      const first = await reader.get('/api/notifications?page=1&limit=10')
      const third = await reader.get('/api/notifications?page=3&limit=10')
      const wide = await reader.get('/api/notifications?page=2&limit=50')
      const count = await reader.get('/api/notifications/unread-count')
      const unread = (first.body.notifications as Array<{ _id: string; isRead: boolean }>).find(
        (notification) => !notification.isRead,
      )
      const id = encodeURIComponent(unread!._id)
      const read = await reader.patch(`/api/notifications/${id}/read`, {})
      // Newest first, whatever the history: notice `total` is the newest.
      expect(first.body.notifications.map((n: { message: string }) => n.message)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Notice ${user.total - i}`),
      )
      expect(third.body.notifications[0].message).toBe(`Notice ${user.total - 20}`)
      expect(wide.body.notifications).toHaveLength(50)
      expect(wide.body.notifications[0].message).toBe(`Notice ${user.total - 50}`)
      expect(first.body.pagination.total).toBe(user.total)
      // Every third notice was read.
      expect(count.body.count).toBe(user.total - Math.floor(user.total / 3))
      expect(read.body.unreadCount).toBe(count.body.count - 1)
      return {
        page: first.commands,
        thirdPage: third.commands,
        widePage: wide.commands,
        unreadCount: count.commands,
        markRead: read.commands,
      }
    }
    const atSmall = await costs(small)
    const atLarge = await costs(large)
    // Printed for the record (docs/notifications.md quotes them).
    console.log(
      `notification route commands at 1x and 10x: ${JSON.stringify({ atSmall, atLarge })}`,
    )
    expect(atLarge).toEqual(atSmall)
    for (const commands of Object.values(atSmall)) {
      expect(commands).toBeGreaterThan(0)
      expect(commands).toBeLessThanOrEqual(5)
    }
  })

  it('keeps preferences per user, honours them, and validates them', async () => {
    const me = await app.registerUser('Pia')
    const client = app.clientFor(me.userId)
    expect((await client.get('/api/notifications/preferences')).body).toEqual({
      emailEnabled: true,
      mobileEnabled: false,
      postRequestsEnabled: true,
      postFavoritesEnabled: true,
      requestStatusEnabled: true,
      messagesEnabled: true,
    })
    const bad = await client.put('/api/notifications/preferences', { emailEnabled: 'yes' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe(Messages.notificationPreferences.invalid('emailEnabled'))
    const saved = await client.put('/api/notifications/preferences', {
      emailEnabled: false,
      mobileEnabled: true,
      postRequestsEnabled: false,
      postFavoritesEnabled: true,
      requestStatusEnabled: true,
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ postRequestsEnabled: false, mobileEnabled: true })
    // Another user's preferences are untouched.
    expect(
      (await app.clientFor(owner.userId).get('/api/notifications/preferences')).body,
    ).toMatchObject({ postRequestsEnabled: true, mobileEnabled: false })

    // A switched-off type makes nothing; the others still arrive.
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', {
        ownerId: me.userId,
        requesterId: worker.userId,
      }),
    )
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.decided', {
        ownerId: worker.userId,
        requesterId: me.userId,
        status: 'rejected',
      }),
    )
    await app.waitForStored(me.userId, 1)
    expect((await app.storedFor(me.userId)).map((n) => n.kind)).toEqual(['request-status'])
  })

  it('mails each notification with a link into the app when e-mails are on', async () => {
    const mailed = await app.registerUser('Mona')
    const quiet = await app.registerUser('Quinn')
    await app.clientFor(quiet.userId).put('/api/notifications/preferences', {
      emailEnabled: false,
    })
    for (const recipient of [quiet, mailed]) {
      await publishEvent(
        Topics.jobsRequests,
        app.jobRequestEvent('job-request.created', {
          ownerId: recipient.userId,
          requesterId: worker.userId,
          postTitle: 'Fix a sink',
        }),
      )
    }
    const [mail] = await waitFor(
      async () => {
        const found = await mailsTo(mailed.email)
        return found.length > 0 && found
      },
      { timeoutMs: EVENT_WAIT_MS, what: `the notification mail to ${mailed.email}` },
    )
    expect(mail!.Subject).toBe('Wanda Worker sent a request for your post "Fix a sink"')
    const full = (await (
      await fetch(`${infraEnv().mailApiUrl}/api/v1/message/${mail!.ID}`)
    ).json()) as { Text: string }
    expect(full.Text).toContain('Hi Mona,')
    expect(full.Text).toContain(`${APP_URL}/settings-employer-requests`)
    // Quinn's notification is stored (preferences allow it) but not mailed.
    await app.waitForStored(quiet.userId, 1)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await mailsTo(quiet.email)).toEqual([])
  })

  it('dead-letters a malformed event with the reason and keeps going', async () => {
    const kafka = new Kafka({
      brokers: infraEnv().kafkaBrokers.split(','),
      logLevel: logLevel.NOTHING,
    })
    const deadLetters: KafkaMessage[] = []
    const watcher = kafka.consumer({ groupId: `notifications-dlq-watch-${randomUUID()}` })
    await watcher.connect()
    await watcher.subscribe({ topic: DEAD_LETTER_TOPIC, fromBeginning: true })
    await watcher.run({ eachMessage: async ({ message }) => void deadLetters.push(message) })
    try {
      const good = app.jobRequestEvent('job-request.created', {
        ownerId: owner.userId,
        requesterId: worker.userId,
        postTitle: 'After the bad one',
      })
      const bad = { ...good, id: randomUUID(), data: { ...good.data, ownerId: 42 } }
      const producer = kafka.producer()
      await producer.connect()
      await producer.send({
        topic: Topics.jobsRequests,
        messages: [
          { key: good.aggregateId, value: JSON.stringify(bad) },
          { key: good.aggregateId, value: JSON.stringify(good) },
        ],
      })
      await producer.disconnect()
      await waitFor(
        async () =>
          (await app.storedFor(owner.userId)).some((n) => n.message.includes('After the bad one')),
        { timeoutMs: EVENT_WAIT_MS, what: 'the good event after the bad one' },
      )
      const letter = await waitFor(
        () =>
          deadLetters.find(
            (m) =>
              m.key?.toString() === good.aggregateId &&
              m.headers?.['consumer-group']?.toString().endsWith('notifications'),
          ),
        { timeoutMs: EVENT_WAIT_MS, what: 'the dead letter of the bad event' },
      )
      expect(letter.headers?.reason?.toString()).toContain('data of job-request.created invalid')
    } finally {
      await watcher.disconnect()
    }
  })

  it('forgets a purged user: their notifications, preferences and address', async () => {
    const leaver = await app.registerUser('Lea')
    await app.clientFor(leaver.userId).put('/api/notifications/preferences', {
      mobileEnabled: true,
    })
    await publishEvent(
      Topics.jobsRequests,
      app.jobRequestEvent('job-request.created', {
        ownerId: leaver.userId,
        requesterId: worker.userId,
      }),
    )
    await app.waitForStored(leaver.userId, 1)
    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', {
        aggregateId: leaver.userId,
        actorId: null,
        data: { userId: leaver.userId },
      }),
    )
    await waitFor(
      async () => {
        const names = (await app.db.listCollections().toArray()).map((c) => c.name)
        for (const name of names) {
          const docs = await app.db.collection(name).find({}).toArray()
          if (JSON.stringify(docs).includes(leaver.userId)) return false
        }
        return true
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'nothing of the purged user left' },
    )
  })
})
