import {
  EVENT_WAIT_MS,
  startFavoritesTestApp,
  type FavoritesTestApp,
} from '../test/favorites-test-app'
import { createBlockAnnouncer } from '@marketplace/read-models/testing'

/**
 * Blocking in favorites (docs/blocking.md): once either side blocked the other, neither's
 * favorites list shows the other's posts or worker profile, and neither can save them (404,
 * as for something that does not exist). The saved entries are kept: unblocking shows them
 * again.
 */
describe('favorites service: blocking (real FerretDB and Kafka)', () => {
  let app: FavoritesTestApp
  let announce: ReturnType<typeof createBlockAnnouncer>

  beforeAll(async () => {
    app = await startFavoritesTestApp('favorites_blocking')
    announce = createBlockAnnouncer(app.db, { timeoutMs: EVENT_WAIT_MS })
  }, 150_000)
  afterAll(async () => {
    await app?.stop()
  })

  it("hides each side's posts and worker profile from the other's favorites, both ways, and unblocking restores them", async () => {
    const aId = await app.registerUser('Anna', 'Able')
    const bId = await app.registerUser('Boris', 'Baker')
    await app.saveWorkerProfile(aId)
    await app.saveWorkerProfile(bId)
    const aPost = await app.announcePost(aId, 'Bake bread')
    const aOtherPost = await app.announcePost(aId, 'Ice a cake')
    const bPost = await app.announcePost(bId, 'Knead dough')
    const a = app.clientFor(aId)
    const b = app.clientFor(bId)
    expect((await a.post('/api/favorites/posts', { userId: aId, postId: bPost })).status).toBe(201)
    expect((await a.post('/api/favorites/people', { userID: aId, personID: bId })).status).toBe(201)
    expect((await b.post('/api/favorites/posts', { userId: bId, postId: aPost })).status).toBe(201)
    expect((await b.post('/api/favorites/people', { userID: bId, personID: aId })).status).toBe(201)
    const listed = async (client: typeof a, userId: string) => ({
      posts: ((await client.get(`/api/favorites/posts/${userId}`)).body as unknown[]).length,
      people: ((await client.get(`/api/favorites/people/${userId}`)).body as unknown[]).length,
    })
    expect(await listed(a, aId)).toEqual({ posts: 1, people: 1 })
    expect(await listed(b, bId)).toEqual({ posts: 1, people: 1 })

    await announce('user.blocked', aId, bId)

    // Both ways: the blocker's and the blocked person's lists.
    expect(await listed(a, aId)).toEqual({ posts: 0, people: 0 })
    expect(await listed(b, bId)).toEqual({ posts: 0, people: 0 })
    // Saving the other's post or profile: 404 both ways, as for nothing.
    const savePost = await b.post('/api/favorites/posts', { userId: bId, postId: aOtherPost })
    expect(savePost.status).toBe(404)
    expect((await a.post('/api/favorites/people', { userID: aId, personID: bId })).status).toBe(404)
    // Someone else still sees and saves them.
    const cId = await app.registerUser('Cleo', 'Clear')
    const c = app.clientFor(cId)
    expect((await c.post('/api/favorites/posts', { userId: cId, postId: aOtherPost })).status).toBe(
      201,
    )
    expect((await c.post('/api/favorites/people', { userID: cId, personID: bId })).status).toBe(201)

    await announce('user.unblocked', aId, bId)
    expect(await listed(a, aId)).toEqual({ posts: 1, people: 1 })
    expect(await listed(b, bId)).toEqual({ posts: 1, people: 1 })
    expect((await b.post('/api/favorites/posts', { userId: bId, postId: aOtherPost })).status).toBe(
      201,
    )
  }, 180_000)
})
