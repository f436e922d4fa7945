import { Topics } from '@marketplace/contracts/events'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import { FAVORITES_COLLECTION } from './favorite-document'
import {
  EVENT_WAIT_MS,
  startFavoritesTestApp,
  type FavoritesTestApp,
} from '../test/favorites-test-app'

const MAX_PER_KIND = 3

describe('favorites service (real FerretDB and Kafka)', () => {
  let app: FavoritesTestApp
  type Client = ReturnType<FavoritesTestApp['clientFor']>
  let ownerId: string
  let saverId: string
  let saver: Client
  let workerId: string

  beforeAll(async () => {
    app = await startFavoritesTestApp('favorites', {
      FAVORITES_MAX_PER_KIND: String(MAX_PER_KIND),
    })
    ownerId = await app.registerUser('Olga', 'Owner')
    saverId = await app.registerUser('Sid', 'Saver')
    saver = app.clientFor(saverId)
    workerId = await app.registerUser('Wanda', 'Worker')
    await app.saveWorkerProfile(workerId)
  })

  afterAll(async () => {
    await app?.stop()
  })

  const entriesOf = async (userId: string, kind: 'post' | 'person') =>
    app.db.collection(FAVORITES_COLLECTION).countDocuments({ userId, kind })

  it('saves a post once, lists it as the post a stranger sees, and announces it', async () => {
    const probe = await startEventProbe(Topics.favorites)
    try {
      const postId = await app.announcePost(ownerId, 'Move a piano', {
        displayLocation: true,
        location: 'Denver CO',
      })
      const saved = await saver.post('/api/favorites/posts', { userId: saverId, postId })
      expect(saved.status).toBe(201)
      expect(saved.body.favoriteID).toMatchObject({
        _id: postId,
        title: 'Move a piano',
        userID: ownerId,
        location: 'Denver CO',
        contact: null,
        authorizedUsers: [],
      })
      // Saving twice keeps one entry and is not an error.
      const again = await saver.post('/api/favorites/posts', { userId: saverId, postId })
      expect(again.status).toBe(200)
      expect(await entriesOf(saverId, 'post')).toBe(1)

      const event = await probe.waitForEvent('favorite.added', `${saverId}:post:${postId}`)
      expect(event.data).toEqual({
        favoriteId: `${saverId}:post:${postId}`,
        userId: saverId,
        userName: 'Sid Saver',
        targetType: 'post',
        targetId: postId,
        targetOwnerId: ownerId,
        targetTitle: 'Move a piano',
      })
      expect(probe.events.filter((e) => e.type === 'favorite.added')).toHaveLength(1)

      const list = await saver.get(`/api/favorites/posts/${saverId}`)
      expect(list.status).toBe(200)
      expect(list.body).toEqual([
        {
          favoriteID: expect.objectContaining({ _id: postId, title: 'Move a piano' }),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ])

      // A removal announces itself; removing what is not saved is not an error.
      expect((await saver.delete(`/api/favorites/posts/${saverId}/${postId}`)).status).toBe(204)
      await probe.waitForEvent('favorite.removed', `${saverId}:post:${postId}`)
      expect((await saver.delete(`/api/favorites/posts/${saverId}/${postId}`)).status).toBe(204)
      expect((await saver.get(`/api/favorites/posts/${saverId}`)).body).toEqual([])
    } finally {
      await probe.stop()
    }
  })

  it('never shows a hidden location or contact of a saved post', async () => {
    // The jobs service announces a hidden field as null; the entry has nothing else to show.
    const postId = await app.announcePost(ownerId, 'Clean a garage', {
      displayLocation: false,
      displayContact: false,
    })
    await saver.post('/api/favorites/posts', { userId: saverId, postId })
    const list = await saver.get(`/api/favorites/posts/${saverId}`)
    const entry = list.body.find(
      (e: { favoriteID: { _id: string } }) => e.favoriteID._id === postId,
    )
    expect(entry.favoriteID).toMatchObject({ location: null, contact: null })
    await saver.delete(`/api/favorites/posts/${saverId}/${postId}`)
  })

  it('saves a worker with personID and only what a stranger may see of them', async () => {
    const saved = await saver.post('/api/favorites/people', {
      userID: saverId,
      personID: workerId,
    })
    expect(saved.status).toBe(201)
    const list = await saver.get(`/api/favorites/people/${saverId}`)
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(1)
    const [entry] = list.body
    expect(entry.personID).toBe(workerId)
    expect(entry.favoriteID).toMatchObject({
      _id: workerId,
      firstName: 'Wanda',
      lastName: 'Worker',
      title: 'House mover',
      skills: ['Lifting', 'Driving'],
      contacts: [{ value: 'mover@example.com', visibility: 'public' }],
      isOnline: true,
    })
    expect(typeof entry.favoriteID.age).toBe('number')
    for (const privateField of ['email', 'phoneNumber', 'dateOfBirth', 'namesAt']) {
      expect(entry.favoriteID).not.toHaveProperty(privateField)
    }
    // A later edit of the name shows in the list (user.profile-updated).
    await app.renameUser(workerId, 'Wendy', 'Worker')
    const renamed = await saver.get(`/api/favorites/people/${saverId}`)
    expect(renamed.body[0].favoriteID).toMatchObject({ firstName: 'Wendy', name: 'Wendy Worker' })
    expect(
      (await saver.post('/api/favorites/people', { userID: saverId, personID: workerId })).status,
    ).toBe(200)
    expect((await saver.delete(`/api/favorites/people/${saverId}/${workerId}`)).status).toBe(204)
    expect((await saver.get(`/api/favorites/people/${saverId}`)).body).toEqual([])
  })

  it('answers every refusal with the right status and a readable message', async () => {
    const ownPost = await app.announcePost(saverId, 'My own post')
    const plainUser = await app.registerUser('Nora', 'Noworker')
    const cases: Array<[string, unknown, number, string]> = [
      ['/api/favorites/posts', { userId: saverId }, 400, Messages.favorites.invalidPost],
      [
        '/api/favorites/posts',
        { userId: saverId, postId: '0123456789abcdef01234567' },
        404,
        Messages.favorites.postNotFound,
      ],
      [
        '/api/favorites/posts',
        { userId: saverId, postId: ownPost },
        400,
        Messages.favorites.ownPost,
      ],
      ['/api/favorites/people', { userID: saverId }, 400, Messages.favorites.invalidPerson],
      [
        '/api/favorites/people',
        { userID: saverId, personID: saverId },
        400,
        Messages.favorites.yourself,
      ],
      [
        '/api/favorites/people',
        { userID: saverId, personID: '0123456789abcdef01234567' },
        404,
        Messages.favorites.personNotFound,
      ],
      [
        '/api/favorites/people',
        { userID: saverId, personID: plainUser },
        400,
        Messages.requests.personNotWorker,
      ],
    ]
    for (const [path, body, status, message] of cases) {
      const answer = await saver.post(path, body)
      expect({ path, body, status: answer.status, message: answer.body?.message }).toEqual({
        path,
        body,
        status,
        message,
      })
    }
    expect(await entriesOf(saverId, 'post')).toBe(0)
    expect(await entriesOf(saverId, 'person')).toBe(0)
  })

  it("never reads or changes another user's lists (BOLA), and needs a token", async () => {
    const postId = await app.announcePost(ownerId, 'Paint a fence')
    await saver.post('/api/favorites/posts', { userId: saverId, postId })
    const intruder = app.clientFor(await app.registerUser('Ivan', 'Intruder'))
    const attempts = [
      await intruder.get(`/api/favorites/posts/${saverId}`),
      await intruder.get(`/api/favorites/people/${saverId}`),
      await intruder.post('/api/favorites/posts', { userId: saverId, postId }),
      await intruder.post('/api/favorites/people', { userID: saverId, personID: workerId }),
      await intruder.delete(`/api/favorites/posts/${saverId}/${postId}`),
      await intruder.delete(`/api/favorites/people/${saverId}/${workerId}`),
    ]
    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403])
    const guest = app.clientFor(null)
    expect((await guest.get(`/api/favorites/posts/${saverId}`)).status).toBe(401)
    expect((await guest.post('/api/favorites/posts', { userId: saverId, postId })).status).toBe(401)
    // The saver's entry is untouched.
    expect(await entriesOf(saverId, 'post')).toBe(1)
    await saver.delete(`/api/favorites/posts/${saverId}/${postId}`)
  })

  it('refuses a save past the capacity with a clear message, still accepting a repeat', async () => {
    const collector = app.clientFor(await app.registerUser('Cleo', 'Collector'))
    const userId = collector.userId as string
    const postIds: string[] = []
    for (let i = 0; i < MAX_PER_KIND + 1; i += 1) {
      postIds.push(await app.announcePost(ownerId, `Job number ${i}`))
    }
    for (const postId of postIds.slice(0, MAX_PER_KIND)) {
      expect((await collector.post('/api/favorites/posts', { userId, postId })).status).toBe(201)
    }
    const full = await collector.post('/api/favorites/posts', {
      userId,
      postId: postIds[MAX_PER_KIND],
    })
    expect(full.status).toBe(409)
    expect(full.body.message).toBe(Messages.favorites.tooManyPosts(MAX_PER_KIND))
    const repeat = await collector.post('/api/favorites/posts', { userId, postId: postIds[0] })
    expect(repeat.status).toBe(200)
    expect(await entriesOf(userId, 'post')).toBe(MAX_PER_KIND)
  })

  it('drops entries whose target is gone or taken down', async () => {
    const keeper = app.clientFor(await app.registerUser('Kim', 'Keeper'))
    const userId = keeper.userId as string
    const deletedPost = await app.announcePost(ownerId, 'Soon deleted')
    const takenDownPost = await app.announcePost(ownerId, 'Soon taken down')
    const keptPost = await app.announcePost(ownerId, 'Kept')
    const hiddenWorker = await app.registerUser('Hal', 'Hidden')
    await app.saveWorkerProfile(hiddenWorker)
    for (const postId of [deletedPost, takenDownPost, keptPost]) {
      expect((await keeper.post('/api/favorites/posts', { userId, postId })).status).toBe(201)
    }
    for (const personId of [workerId, hiddenWorker]) {
      const saved = await keeper.post('/api/favorites/people', {
        userID: userId,
        personID: personId,
      })
      expect(saved.status).toBe(201)
    }

    await app.deletePost(deletedPost, ownerId, 'Soon deleted')
    await app.announcePost(ownerId, 'Soon taken down', {
      postId: takenDownPost,
      isOnline: false,
      takenDown: true,
    })
    await app.saveWorkerProfile(hiddenWorker, { isOnline: false, takenDown: true })

    const posts = await keeper.get(`/api/favorites/posts/${userId}`)
    expect(posts.body.map((e: { favoriteID: { title: string } }) => e.favoriteID.title)).toEqual([
      'Kept',
    ])
    const people = await keeper.get(`/api/favorites/people/${userId}`)
    expect(people.body.map((e: { personID: string }) => e.personID)).toEqual([workerId])
    // The deleted post's entry is gone from the database, not only from the answer.
    await waitFor(
      async () =>
        (await app.db
          .collection(FAVORITES_COLLECTION)
          .countDocuments({ targetId: deletedPost })) === 0,
      { timeoutMs: EVENT_WAIT_MS, what: 'entry of the deleted post removed' },
    )
    // A taken-down target can no longer be saved.
    const refused = await saver.post('/api/favorites/posts', {
      userId: saverId,
      postId: takenDownPost,
    })
    expect(refused.status).toBe(404)
  })

  it('forgets a purged user: their lists, and every entry about them or their posts', async () => {
    const leaverId = await app.registerUser('Lea', 'Leaver')
    const leaver = app.clientFor(leaverId)
    await app.saveWorkerProfile(leaverId)
    const leaversPost = await app.announcePost(leaverId, 'Leaver post')
    const othersPost = await app.announcePost(ownerId, 'Stays')
    expect(
      (await leaver.post('/api/favorites/posts', { userId: leaverId, postId: othersPost })).status,
    ).toBe(201)
    expect(
      (await saver.post('/api/favorites/posts', { userId: saverId, postId: leaversPost })).status,
    ).toBe(201)
    expect(
      (await saver.post('/api/favorites/people', { userID: saverId, personID: leaverId })).status,
    ).toBe(201)

    await app.purgeUser(leaverId)
    await waitFor(
      async () => {
        const left = await app.db.collection(FAVORITES_COLLECTION).find({}).toArray()
        return !JSON.stringify(left).includes(leaverId)
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'every favorite naming the leaver removed' },
    )
    // The read model forgets the leaver's posts in its own consumer group, maybe later than
    // the favorites go: wait for it too rather than reading it once.
    await waitFor(
      async () =>
        (await app.db.collection('post_catalog').countDocuments({ ownerId: leaverId })) === 0,
      { timeoutMs: EVENT_WAIT_MS, what: "the leaver's posts gone from the post catalog" },
    )
    const posts = await saver.get(`/api/favorites/posts/${saverId}`)
    expect(posts.body.map((e: { favoriteID: { _id: string } }) => e.favoriteID._id)).not.toContain(
      leaversPost,
    )
  })

  it('lists favorites and counts saves in a fixed number of commands, at 1x and 10x the entries', async () => {
    const keeperId = await app.registerUser('Kim', 'Keeper')
    const keeper = app.clientFor(keeperId)
    const posts = [
      await app.announcePost(ownerId, 'Kept one'),
      await app.announcePost(ownerId, 'Kept two'),
    ]
    for (const postId of posts) {
      expect((await keeper.post('/api/favorites/posts', { userId: keeperId, postId })).status).toBe(
        201,
      )
    }
    const owner = app.clientFor(ownerId)
    /** `count` favorites of others, half of them of the owner's posts (what the stats count). */
    const storeOthers = (from: number, count: number) =>
      app.db.collection(FAVORITES_COLLECTION).insertMany(
        Array.from({ length: count }, (_, i) => {
          const n = from + i
          const userId = app.newUserId()
          const postId = n % 2 === 0 ? posts[0]! : app.newUserId()
          return {
            _id: `${userId}:post:${postId}`,
            userId,
            kind: 'post',
            targetId: postId,
            targetOwnerId: n % 2 === 0 ? ownerId : app.newUserId(),
            createdAt: new Date(Date.now() - n),
          }
        }) as never[],
      )
    const costs = async () => {
      const listed = await keeper.get(`/api/favorites/posts/${keeperId}`)
      expect(listed.body.map((e: { favoriteID: { _id: string } }) => e.favoriteID._id)).toEqual([
        posts[1],
        posts[0],
      ])
      const stats = await owner.get(`/api/favorites/stats/${ownerId}`)
      return { list: listed.commands, stats: stats.commands, received: stats.body }
    }
    await storeOthers(0, 40)
    const atSmall = await costs()
    await storeOthers(40, 360)
    const atLarge = await costs()
    console.log(`favorites commands at 1x and 10x: ${JSON.stringify({ atSmall, atLarge })}`)
    expect(atLarge.list).toBe(atSmall.list)
    expect(atLarge.stats).toBe(atSmall.stats)
    expect(atLarge.received.postFavoritesReceived - atSmall.received.postFavoritesReceived).toBe(
      180,
    )
    for (const commands of [atSmall.list, atSmall.stats]) {
      expect(commands).toBeGreaterThan(0)
      expect(commands).toBeLessThanOrEqual(5)
    }
  })
})
