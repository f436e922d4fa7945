import { randomBytes } from 'node:crypto'
import { Kafka, logLevel } from 'kafkajs'
import { MongoClient, ObjectId } from 'mongodb'
import { io, type Socket } from 'socket.io-client'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import {
  infraEnv,
  signTestToken,
  testKeyPair,
  testMongoUrl,
  waitFor,
} from '@marketplace/service-kit/testing'
import {
  freePort,
  siteClient,
  startService,
  waitUntilReady,
  type RunningService,
} from './processes'
import { startKafka } from './server-containers'

// The notifications pipeline end to end, as processes behind the gateway: requests on a post
// (jobs) become notifications (notifications service) pushed to the owner's socket through
// the gateway's tunnel. Two failures: Kafka stopped for 30 s during a burst of 200 requests,
// and the notifications service killed in the middle of a burst and started again. After
// each, every notification is there exactly once. The stack has a broker of its own, a
// container (testcontainers) started for this file, so stopping it (`docker stop`) takes
// Kafka away from no other test running meanwhile. Users and worker profiles are announced
// with the events auth and people publish (their own tests cover them).
describe('notifications reliability through the gateway', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const databases = {
    jobs: testMongoUrl('system_notify_jobs'),
    notifications: testMongoUrl('system_notify_notifications'),
  }
  let broker: Awaited<ReturnType<typeof startKafka>> | undefined
  let common: Record<string, string>
  const services: RunningService[] = []
  let notifications: RunningService
  let notificationsEnv: Record<string, string>
  let gatewayUrl: string
  let call: ReturnType<typeof siteClient>['call']
  const sockets: Socket[] = []

  const tokenFor = (userId: string) => {
    const now = Math.floor(Date.now() / 1000)
    return signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
      iat: now - 1,
      exp: now + 1800,
    })
  }

  beforeAll(async () => {
    broker = await startKafka()
    common = {
      KAFKA_BROKERS: broker.brokers,
      KAFKA_GROUP_PREFIX: `system-notify-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '500',
    }
    const jobs = await startService('jobs-notify', 'services/jobs', {
      ...common,
      PORT: String(await freePort()),
      MONGO_URL: databases.jobs,
    })
    services.push(jobs)
    notificationsEnv = {
      ...common,
      PORT: String(await freePort()),
      MONGO_URL: databases.notifications,
      SMTP_HOST: infra.smtpHost,
      SMTP_PORT: String(infra.smtpPort),
    }
    notifications = await startService(
      'notifications-notify',
      'services/notifications',
      notificationsEnv,
    )
    await Promise.all([waitUntilReady(jobs), waitUntilReady(notifications)])
    const gateway = await startService('gateway-notify', 'services/gateway', {
      PORT: String(await freePort()),
      JOBS_URL: jobs.url,
      NOTIFICATIONS_URL: notifications.url,
    })
    services.push(gateway)
    gatewayUrl = gateway.url
    ;({ call } = siteClient(gatewayUrl))
  })

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect()
    await Promise.all([...services, notifications].map((service) => service?.stop()))
    await broker?.remove()
    for (const url of Object.values(databases)) {
      const mongo = await new MongoClient(url).connect()
      await mongo.db().dropDatabase()
      await mongo.close()
    }
  })

  /** Announces users (user.registered) and makes the workers workers, as auth and people do. */
  async function announce(count: number, prefix: string) {
    const people = Array.from({ length: count }, (_, i) => ({
      userId: new ObjectId().toHexString(),
      firstName: `${prefix}${i}`,
    }))
    const kafka = new Kafka({ brokers: [broker!.brokers], logLevel: logLevel.NOTHING })
    const producer = kafka.producer()
    await producer.connect()
    await producer.send({
      topic: Topics.authUsers,
      messages: people.map(({ userId, firstName }) => ({
        key: userId,
        value: JSON.stringify(
          newEvent('user.registered', {
            aggregateId: userId,
            actorId: userId,
            data: {
              userId,
              email: `${firstName}.${userId}@example.test`.toLowerCase(),
              firstName,
              lastName: 'Burst',
              phoneNumber: '(212) 555-0100',
              dateOfBirth: '1990-01-01',
              interest: 'Both',
              emailPreferences: false,
            },
          }),
        ),
      })),
    })
    await producer.send({
      topic: Topics.peopleUsers,
      messages: people.map(({ userId }) => ({
        key: userId,
        value: JSON.stringify(
          newEvent('worker-profile.updated', {
            aggregateId: userId,
            actorId: userId,
            data: { userId, isWorker: true, title: 'Helper', skills: ['Lifting'] },
          }),
        ),
      })),
    })
    await producer.disconnect()
    const jobsDb = await new MongoClient(databases.jobs).connect()
    try {
      await waitFor(
        async () =>
          (await jobsDb
            .db()
            .collection('users')
            .countDocuments({
              _id: { $in: people.map((p) => p.userId) as never[] },
              isWorker: true,
            })) === count,
        { timeoutMs: 120_000, intervalMs: 500, what: `${count} workers known to jobs` },
      )
    } finally {
      await jobsDb.close()
    }
    return people
  }

  /** An owner with a post and a socket through the gateway collecting what is pushed. */
  async function ownerWithPost(title: string) {
    const [owner] = await announce(1, `Owner${title.replace(/\W/g, '')}`)
    const token = tokenFor(owner!.userId)
    const post = await call('POST', '/api/jobs', token, { title, where: 'Denver CO' })
    expect(post.status).toBe(201)
    const pushed: string[] = []
    const socket = io(gatewayUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token },
    })
    sockets.push(socket)
    socket.on('notification', (message: { notification: { _id: string } }) =>
      pushed.push(message.notification._id),
    )
    // Authenticate on every (re)connection, as the web app does.
    const authenticated = new Promise((resolve) => socket.once('authenticated', resolve))
    socket.on('connect', () => socket.emit('authenticate', owner!.userId))
    expect(await authenticated).toEqual({ success: true })
    return { ...owner!, token, postId: post.body._id as string, pushed }
  }

  /** Sends one request per worker on the post, `parallel` at a time; all must be accepted. */
  async function burst(
    workers: Array<{ userId: string }>,
    postId: string,
    parallel: number,
    onProgress?: (sent: number) => void,
  ) {
    let sent = 0
    const queue = [...workers]
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const answer = await call('POST', '/api/jobs/requests', tokenFor(next.userId), {
            postID: postId,
          })
          expect(answer.status).toBe(201)
          sent += 1
          onProgress?.(sent)
        }
      }),
    )
  }

  /**
   * Waits until the owner has `count` notifications, then checks none came twice. With
   * `allPushed`, the socket must also have received each once; a socket whose instance
   * was killed misses what was stored while it reconnected (the dropdown reads those).
   */
  async function expectExactly(
    owner: { token: string; pushed: string[] },
    count: number,
    { allPushed }: { allPushed: boolean },
  ) {
    const totalOf = async () =>
      (await call('GET', '/api/notifications?limit=50', owner.token)).body.pagination
        .total as number
    await waitFor(async () => (await totalOf()) === count, {
      timeoutMs: 180_000,
      intervalMs: 1000,
      what: `${count} notifications stored`,
    })
    if (allPushed) {
      await waitFor(() => new Set(owner.pushed).size === count, {
        timeoutMs: 60_000,
        what: `${count} notifications pushed to the socket`,
      })
    }
    // A moment later nothing more has come: no duplicate stored or pushed.
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(await totalOf()).toBe(count)
    expect(new Set(owner.pushed).size).toBe(owner.pushed.length)
    if (allPushed) expect(owner.pushed).toHaveLength(count)
    const messages = new Set<string>()
    for (let page = 1; page <= Math.ceil(count / 50); page += 1) {
      const answer = await call('GET', `/api/notifications?limit=50&page=${page}`, owner.token)
      for (const n of answer.body.notifications as Array<{ message: string }>)
        messages.add(n.message)
    }
    expect(messages.size).toBe(count)
  }

  it('with Kafka stopped for 30 s during a burst of 200 requests, every notification arrives once', async () => {
    const workers = await announce(200, 'Kw')
    const owner = await ownerWithPost('Outage job')
    const stoppedAt = Date.now()
    await broker!.stop()
    try {
      // Requests keep being accepted: their events wait in the jobs outbox.
      await burst(workers, owner.postId, 10)
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - stoppedAt))),
      )
    } finally {
      await broker!.start()
    }
    await expectExactly(owner, 200, { allPushed: true })
  })

  it('with the notifications service killed mid-burst and started again, none is lost or doubled', async () => {
    const workers = await announce(100, 'Kill')
    const owner = await ownerWithPost('Crash job')
    let restarted: Promise<void> | null = null
    await burst(workers, owner.postId, 5, (sent) => {
      if (sent !== 30 || restarted) return
      // SIGKILL: no graceful shutdown, offsets and outbox exactly as a crash leaves them.
      notifications.process.kill('SIGKILL')
      restarted = (async () => {
        await new Promise((resolve) => notifications.process.once('exit', resolve))
        notifications = await startService(
          'notifications-notify',
          'services/notifications',
          notificationsEnv,
        )
        await waitUntilReady(notifications)
      })()
    })
    await restarted
    await expectExactly(owner, 100, { allPushed: false })
  })
})
