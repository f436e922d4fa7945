import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startFavoritesTestApp,
  type FavoritesTestApp,
} from '../test/favorites-test-app'

/**
 * A person in the grace period of an account deletion, and their posts, leave
 * every favorites list and cannot be saved; keeping the account brings them back.
 */
describe('favorites service: an account in its deletion grace period (real FerretDB and Kafka)', () => {
  let app: FavoritesTestApp

  beforeAll(async () => {
    app = await startFavoritesTestApp('favorites_deletion_grace')
  }, 150_000)
  afterAll(async () => {
    await app?.stop()
  })

  const deletionRequested = (userId: string) =>
    publishEvent(
      Topics.peopleUsers,
      newEvent('user.deletion-requested', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          requestedAt: new Date().toISOString(),
          purgeAfter: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        },
      }),
    )
  const deletionCancelled = (userId: string) =>
    publishEvent(
      Topics.authUsers,
      newEvent('user.deletion-cancelled', {
        aggregateId: userId,
        actorId: userId,
        data: { userId },
      }),
    )

  it('hides a leaving worker and their posts from lists and saves, and brings them back', async () => {
    const leaverId = await app.registerUser('Lena', 'Leaving')
    await app.saveWorkerProfile(leaverId)
    const postId = await app.announcePost(leaverId, 'Water plants')
    const otherPostId = await app.announcePost(leaverId, 'Feed the cat')
    const saverId = await app.registerUser('Sam', 'Saver')
    const saver = app.clientFor(saverId)
    expect((await saver.post('/api/favorites/posts', { userId: saverId, postId })).status).toBe(201)
    expect(
      (await saver.post('/api/favorites/people', { userID: saverId, personID: leaverId })).status,
    ).toBe(201)
    const listed = async () => ({
      posts: ((await saver.get(`/api/favorites/posts/${saverId}`)).body as unknown[]).length,
      people: ((await saver.get(`/api/favorites/people/${saverId}`)).body as unknown[]).length,
    })
    expect(await listed()).toEqual({ posts: 1, people: 1 })

    await deletionRequested(leaverId)
    await waitFor(async () => (await listed()).people === 0 && (await listed()).posts === 0, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the leaving worker and their post out of the lists',
    })
    expect(
      (await saver.post('/api/favorites/posts', { userId: saverId, postId: otherPostId })).status,
    ).toBe(404)

    await deletionCancelled(leaverId)
    await waitFor(async () => (await listed()).people === 1 && (await listed()).posts === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the kept account back in the lists',
    })
    expect(
      (await saver.post('/api/favorites/posts', { userId: saverId, postId: otherPostId })).status,
    ).toBe(201)
  }, 180_000)
})
