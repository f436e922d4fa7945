import { randomBytes } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { infraEnv, testKeyPair, testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, siteClient, startService, type RunningService } from './processes'

// Favorites, reports and a moderator's take-down end to end, every part a real process behind
// the gateway: a member saves and reports a post and a worker; the administrator configured
// for auth sees both in the queue and takes them down; jobs and people then leave them out
// of their feeds, and favorites out of the saved lists, while the owners still see their own.
// A message reported in a request's conversation reaches the same queue with the
// conversation around it, and its take-down hides it from both parties.
/** A message report as the queue shows it, the fields read below. */
interface QueuedReport {
  _id: string
  targetType: string
  targetId: string
  target: { message: { excerpt: unknown[] } }
}

describe('favorites, reports and moderation through the gateway', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const admin = { email: 'moderator@example.test', password: 'Moderate2026!' }
  const databases = {
    auth: testMongoUrl('system_moderation_auth'),
    people: testMongoUrl('system_moderation_people'),
    jobs: testMongoUrl('system_moderation_jobs'),
    favorites: testMongoUrl('system_moderation_favorites'),
    reports: testMongoUrl('system_moderation_reports'),
    conversations: testMongoUrl('system_moderation_conversations'),
  }
  const services: RunningService[] = []
  let site: ReturnType<typeof siteClient>

  beforeAll(async () => {
    const common = {
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_GROUP_PREFIX: `system-moderation-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '500',
    }
    const upstreams: Record<string, string> = {}
    for (const name of Object.keys(databases) as Array<keyof typeof databases>) {
      const service = await startService(`${name}-moderation`, `services/${name}`, {
        ...common,
        ...(name === 'auth'
          ? { ...authOnlyEnv(keys), ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }
          : {}),
        PORT: String(await freePort()),
        MONGO_URL: databases[name],
      })
      services.unshift(service)
      upstreams[`${name.toUpperCase()}_URL`] = service.url
    }
    const gateway = await startService('gateway-moderation', 'services/gateway', {
      PORT: String(await freePort()),
      ...upstreams,
    })
    services.unshift(gateway)
    site = siteClient(gateway.url)
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    for (const url of Object.values(databases)) {
      const mongo = await new MongoClient(url).connect()
      await mongo.db().dropDatabase()
      await mongo.close()
    }
  })

  it('takes a reported post and worker down from every feed and list, for others only', async () => {
    const { call, member, login } = site
    const [owner, worker, member1] = [
      await member('Olga', 'Owner'),
      await member('Wade', 'Flagworker'),
      await member('Mia', 'Member'),
    ]
    const profile = await call('PUT', `/api/users/${worker.userId}/worker-profile`, worker.token, {
      title: 'Handyman',
      skills: ['Repairs'],
      availability: 'Evenings',
      paymentType: 'Cash',
      location: 'Denver CO',
      contacts: [{ value: 'wade@example.test', visibility: 'public' }],
    })
    expect(profile.status).toBe(200)
    const post = await call('POST', '/api/jobs', owner.token, {
      title: 'Flagged gardening job',
      where: 'Denver CO',
    })
    expect(post.status).toBe(201)
    const postId = post.body._id as string

    // The member saves both and reports both, once the read models know them.
    await waitFor(
      async () =>
        (
          await Promise.all([
            call('POST', '/api/favorites/posts', member1.token, { userId: member1.userId, postId }),
            call('POST', '/api/favorites/people', member1.token, {
              userID: member1.userId,
              personID: worker.userId,
            }),
          ])
        ).every((answer) => answer.status === 201 || answer.status === 200),
      { timeoutMs: 60_000, what: 'the post and the worker known to favorites' },
    )
    const saved = await call('GET', `/api/favorites/people/${member1.userId}`, member1.token)
    expect(saved.body.map((entry: { personID: string }) => entry.personID)).toEqual([worker.userId])
    await waitFor(
      async () =>
        (
          await call('POST', '/api/reports/posts', member1.token, {
            postId,
            type: 'scam',
            description: 'Asks for money up front',
          })
        ).status === 201,
      { timeoutMs: 60_000, what: 'the post known to reports' },
    )
    // People arrive through another consumer group than posts: each is awaited on its own.
    await waitFor(
      async () =>
        (
          await call('POST', '/api/reports/people', member1.token, {
            reportedId: worker.userId,
            type: 'inappropriate',
          })
        ).status === 201,
      { timeoutMs: 60_000, what: 'the worker known to reports' },
    )
    expect((await call('GET', '/api/reports', member1.token)).status).toBe(403)

    // The administrator from auth's configuration reviews the queue, oldest first.
    const moderator = await login(admin.email, admin.password)
    expect(moderator.roles).toContain('2001')
    const queue = await call('GET', '/api/reports', moderator.token)
    expect(queue.status).toBe(200)
    expect(
      queue.body.reports.map((r: { targetType: string; targetId: string }) => [
        r.targetType,
        r.targetId,
      ]),
    ).toEqual([
      ['post', postId],
      ['person', worker.userId],
    ])
    expect(queue.body.reports[0]).toMatchObject({
      reporter: { _id: member1.userId, name: 'Mia Member' },
      target: { post: { title: 'Flagged gardening job' } },
      overdue: false,
    })
    for (const report of queue.body.reports as Array<{ _id: string }>) {
      const taken = await call('PATCH', `/api/reports/${report._id}`, moderator.token, {
        action: 'take-down',
      })
      expect(taken.status).toBe(200)
    }

    // Gone from the feeds and the member's lists; the owners still see their own.
    await waitFor(
      async () => {
        const feed = await call('GET', '/api/jobs?search=Flagged&limit=10')
        const people = await call('GET', '/api/people?search=Flagworker&limit=10')
        return (
          !feed.body.jobs.some((job: { _id: string }) => job._id === postId) &&
          !people.body.people.some((person: { _id: string }) => person._id === worker.userId)
        )
      },
      { timeoutMs: 60_000, what: 'the post and the worker gone from the feeds' },
    )
    expect((await call('GET', `/api/jobs/${postId}`, member1.token)).status).toBe(404)
    expect((await call('GET', `/api/jobs/${postId}`, owner.token)).status).toBe(200)
    await waitFor(
      async () => {
        const posts = await call('GET', `/api/favorites/posts/${member1.userId}`, member1.token)
        const people = await call('GET', `/api/favorites/people/${member1.userId}`, member1.token)
        return posts.body.length === 0 && people.body.length === 0
      },
      { timeoutMs: 60_000, what: "the taken-down post and worker gone from the member's lists" },
    )
    const switchBack = await call(
      'PATCH',
      `/api/users/${worker.userId}/worker-status`,
      worker.token,
      { isOnline: true },
    )
    expect(switchBack.status).toBe(403)
    const open = await call('GET', '/api/reports', moderator.token)
    expect(open.body.reports).toEqual([])
    const closed = await call('GET', '/api/reports?status=closed', moderator.token)
    expect(closed.body.reports.map((r: { action: string }) => r.action)).toEqual([
      'take-down',
      'take-down',
    ])
  })

  it('takes a reported message down from its conversation, for both parties', async () => {
    const { call, member, login } = site
    const [poster, worker] = [await member('Nora', 'Poster'), await member('Walt', 'Messenger')]
    const profile = await call('PUT', `/api/users/${worker.userId}/worker-profile`, worker.token, {
      title: 'Mover',
      skills: ['Lifting'],
      availability: 'Weekends',
      paymentType: 'Cash',
      location: 'Denver CO',
      contacts: [],
    })
    expect(profile.status).toBe(200)
    const post = await call('POST', '/api/jobs', poster.token, {
      title: 'Move a piano upstairs',
      where: 'Denver CO',
    })
    expect(post.status).toBe(201)
    const requestId = await waitFor(
      async () => {
        const sent = await call('POST', '/api/jobs/requests', worker.token, {
          postID: post.body._id,
        })
        return sent.status === 201 ? (sent.body._id as string) : undefined
      },
      { timeoutMs: 60_000, what: "the worker's profile known to jobs" },
    )

    // The request opened its conversation; the worker writes, the poster answers.
    const conversationId = await waitFor(
      async () => {
        const found = await call('GET', `/api/conversations/by-request/${requestId}`, worker.token)
        return found.status === 200 ? (found.body._id as string) : undefined
      },
      { timeoutMs: 60_000, what: 'the conversation of the request' },
    )
    const messages = `/api/conversations/${conversationId}/messages`
    expect(
      (await call('POST', messages, worker.token, { text: 'Hi, is Saturday fine?' })).status,
    ).toBe(201)
    const offending = await call('POST', messages, poster.token, {
      text: 'Only if you pay a deposit in gift cards first',
    })
    expect(offending.status).toBe(201)
    const messageId = offending.body._id as string

    const reported = await call('POST', `${messages}/${messageId}/report`, worker.token, {
      type: 'scam',
      description: 'Asks for gift cards',
    })
    expect(reported.status).toBe(201)

    // The moderator sees it with the conversation around it and takes it down.
    const moderator = await login(admin.email, admin.password)
    const report = await waitFor(
      async () => {
        const queue = await call('GET', '/api/reports', moderator.token)
        return (queue.body.reports as QueuedReport[]).find(
          (entry) => entry.targetType === 'message' && entry.targetId === messageId,
        )
      },
      { timeoutMs: 60_000, what: 'the reported message in the queue' },
    )
    expect(report).toMatchObject({
      reporter: { _id: worker.userId, name: 'Walt Messenger' },
      description: 'Asks for gift cards',
      target: {
        message: { _id: messageId, sender: { _id: poster.userId, name: 'Nora Poster' } },
        takenDown: false,
      },
    })
    expect(report.target.message.excerpt).toEqual([
      expect.objectContaining({ text: 'Hi, is Saturday fine?', reported: false }),
      expect.objectContaining({
        _id: messageId,
        senderName: 'Nora Poster',
        text: 'Only if you pay a deposit in gift cards first',
        reported: true,
      }),
    ])
    const taken = await call('PATCH', `/api/reports/${report._id}`, moderator.token, {
      action: 'take-down',
    })
    expect(taken.status).toBe(200)

    // Hidden from both parties; the queue then shows it taken down.
    for (const party of [poster, worker]) {
      await waitFor(
        async () => {
          const history = await call('GET', messages, party.token)
          const shown = (
            history.body.items as Array<{ _id: string; text: string; takenDown: boolean }>
          ).find((message) => message._id === messageId)
          return shown?.takenDown === true && shown.text === ''
        },
        { timeoutMs: 60_000, what: 'the message hidden from both parties' },
      )
    }
    await waitFor(
      async () =>
        (await call('GET', `/api/reports/${report._id}`, moderator.token)).body.target.takenDown ===
        true,
      { timeoutMs: 60_000, what: 'the queue showing the message taken down' },
    )
  })
})
