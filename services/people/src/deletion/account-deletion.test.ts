import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { KNOWN_POSTS_COLLECTION } from '../posts/known-posts'
import { PROFILES_COLLECTION } from '../profiles/profile-document'
import { PEOPLE_REQUESTS_COLLECTION } from '../requests/people-request-document'
import {
  EVENT_WAIT_MS,
  startPeopleTestApp,
  postEvent,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

const GRACE_MS = 3000

describe('people service: account deletion with a grace period (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp

  beforeAll(async () => {
    // A grace period of seconds instead of 30 days, looked for every 200 ms.
    people = await startPeopleTestApp('people_deletion', {
      DELETION_GRACE_MS: String(GRACE_MS),
      PURGE_INTERVAL_MS: '200',
    })
  })

  afterAll(async () => {
    await people?.stop()
  })

  const inFeed = async (userId: string) =>
    (
      (await people.clientFor(null).get('/api/people?limit=50')).body.people as Array<{
        _id: string
      }>
    ).some((person) => person._id === userId)

  it('starts the grace period for the user only, hides the profile, and lets auth cancel it', async () => {
    const probe = await startEventProbe(Topics.peopleUsers)
    try {
      const userId = await people.registerUser('Grace', 'Period')
      const user = people.clientFor(userId)
      await user.put(`/api/users/${userId}/worker-profile`, workerProfileBody())
      const stranger = people.clientFor(await people.registerUser('Sam', 'Stranger'))
      expect(await inFeed(userId)).toBe(true)

      expect((await stranger.delete(`/api/users/${userId}`)).status).toBe(403)
      const asked = await user.delete(`/api/users/${userId}`)
      expect(asked.status).toBe(200)
      expect(asked.body.message).toBe(Messages.account.deleted)
      const purgeAfter = new Date(asked.body.purgeAfter).getTime()
      expect(purgeAfter - Date.now()).toBeGreaterThan(0)
      expect(purgeAfter - Date.now()).toBeLessThanOrEqual(GRACE_MS)

      const event = await probe.waitForEvent('user.deletion-requested', userId, EVENT_WAIT_MS)
      expect(event.data).toMatchObject({ userId, purgeAfter: asked.body.purgeAfter })
      expect(await inFeed(userId)).toBe(false)
      expect((await stranger.get(`/api/users/${userId}`)).status).toBe(404)
      expect((await user.get(`/api/users/${userId}`)).body.deletion).toEqual({
        purgeAfter: asked.body.purgeAfter,
      })

      // "Keep my account" in auth: the profile comes back.
      await publishEvent(
        Topics.authUsers,
        newEvent('user.deletion-cancelled', {
          aggregateId: userId,
          actorId: userId,
          data: { userId },
        }),
      )
      await waitFor(() => inFeed(userId), {
        timeoutMs: EVENT_WAIT_MS,
        what: 'the kept profile back in the feed',
      })
      expect((await stranger.get(`/api/users/${userId}`)).status).toBe(200)
      // Well past the grace period, nothing is purged: the deletion was cancelled.
      await new Promise((resolve) => setTimeout(resolve, GRACE_MS + 500))
      expect(probe.events.some((e) => e.type === 'user.deleted' && e.aggregateId === userId)).toBe(
        false,
      )
    } finally {
      await probe.stop()
    }
  })

  it('purges after the grace period: user.deleted, then nothing of the user stays here', async () => {
    const probe = await startEventProbe(Topics.peopleUsers)
    try {
      const leaverId = await people.registerUser('Lea', 'Leaver')
      const leaver = people.clientFor(leaverId)
      const workerId = await people.registerUser('Will', 'Worker')
      const worker = people.clientFor(workerId)
      await worker.put(`/api/users/${workerId}/worker-profile`, workerProfileBody())
      await leaver.put(`/api/users/${leaverId}/worker-profile`, workerProfileBody())

      // The leaver owns a post, asked the worker for it, and may see the worker's hidden
      // contacts (the worker requested one of the leaver's posts).
      const postId = new ObjectId().toHexString()
      await publishEvent(
        Topics.jobsPosts,
        postEvent('post.created', { postId, ownerId: leaverId, title: 'Leaver post' }),
      )
      await publishEvent(
        Topics.jobsRequests,
        newEvent('job-request.created', {
          aggregateId: 'jr-leaver',
          actorId: workerId,
          data: {
            requestId: 'jr-leaver',
            postId,
            postTitle: 'Leaver post',
            ownerId: leaverId,
            requesterId: workerId,
            requesterName: 'Will Worker',
            status: 'pending',
          },
        }),
      )
      await waitFor(
        async () =>
          (await people.db.collection(KNOWN_POSTS_COLLECTION).findOne({ _id: postId as never })) !==
          null,
        { timeoutMs: EVENT_WAIT_MS, what: 'the post known' },
      )
      const asked = await leaver.post('/api/people/requests', {
        postID: postId,
        requestedID: workerId,
      })
      expect(asked.status).toBe(201)
      await waitFor(
        async () =>
          ((await leaver.get(`/api/users/${workerId}`)).body.contacts as unknown[]).length === 2,
        { timeoutMs: EVENT_WAIT_MS, what: "the leaver seeing the worker's hidden contact" },
      )

      expect((await leaver.delete(`/api/users/${leaverId}`)).status).toBe(200)
      const deleted = await probe.waitForEvent('user.deleted', leaverId, EVENT_WAIT_MS)
      expect(deleted.data).toEqual({ userId: leaverId })

      await waitFor(
        async () =>
          (await people.db
            .collection(PROFILES_COLLECTION)
            .countDocuments({ _id: leaverId as never })) === 0,
        { timeoutMs: EVENT_WAIT_MS, what: "the leaver's profile removed" },
      )
      // Nothing of the leaver in any collection of this service's database.
      for (const { name } of await people.db.listCollections().toArray()) {
        const docs = await people.db.collection(name).find({}).toArray()
        const mentioning = docs.filter((doc) => JSON.stringify(doc).includes(leaverId))
        expect({ collection: name, mentioning }).toEqual({ collection: name, mentioning: [] })
      }
      expect(
        await people.db.collection(PEOPLE_REQUESTS_COLLECTION).countDocuments({ workerId }),
      ).toBe(0)
      // Exactly one user.deleted, however many purge passes ran.
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(
        probe.events.filter((e) => e.type === 'user.deleted' && e.aggregateId === leaverId),
      ).toHaveLength(1)
      // The worker is untouched.
      expect((await worker.get(`/api/users/${workerId}`)).status).toBe(200)
    } finally {
      await probe.stop()
    }
  })
})
