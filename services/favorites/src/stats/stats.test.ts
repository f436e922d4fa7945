import {
  EVENT_WAIT_MS,
  startFavoritesTestApp,
  type FavoritesTestApp,
} from '../test/favorites-test-app'

describe('favorites service: stats (real FerretDB and Kafka)', () => {
  let app: FavoritesTestApp

  beforeAll(async () => {
    app = await startFavoritesTestApp('favorites_stats')
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  it(
    'counts how often others saved the user’s posts and the user, for themself only',
    async () => {
      const ownerId = await app.registerUser('Olga', 'Owner')
      await app.saveWorkerProfile(ownerId)
      const owner = app.clientFor(ownerId)
      const savers = [
        await app.registerUser('Sid', 'Saver'),
        await app.registerUser('Sue', 'Saver'),
      ]
      const first = await app.announcePost(ownerId, 'Move a piano')
      const second = await app.announcePost(ownerId, 'Paint a fence')
      const gone = await app.announcePost(ownerId, 'Soon deleted')

      for (const saverId of savers) {
        const saver = app.clientFor(saverId)
        for (const postId of [first, gone]) {
          expect(
            (await saver.post('/api/favorites/posts', { userId: saverId, postId })).status,
          ).toBe(201)
        }
        expect(
          (await saver.post('/api/favorites/people', { userID: saverId, personID: ownerId }))
            .status,
        ).toBe(201)
      }
      const sid = app.clientFor(savers[0]!)
      expect(
        (await sid.post('/api/favorites/posts', { userId: savers[0], postId: second })).status,
      ).toBe(201)
      // Saving again does not count twice; the owner saving a saver counts for the saver only.
      await sid.post('/api/favorites/posts', { userId: savers[0], postId: second })
      await app.saveWorkerProfile(savers[1]!)
      await owner.post('/api/favorites/people', { userID: ownerId, personID: savers[1] })

      const stats = async () => (await owner.get(`/api/favorites/stats/${ownerId}`)).body
      expect(await stats()).toEqual({ postFavoritesReceived: 5, peopleFavoritesReceived: 2 })
      // A removed entry and a deleted post no longer count.
      await sid.delete(`/api/favorites/people/${savers[0]}/${ownerId}`)
      await app.deletePost(gone, ownerId, 'Soon deleted')
      expect(await stats()).toEqual({ postFavoritesReceived: 3, peopleFavoritesReceived: 1 })
      expect(
        (await app.clientFor(savers[1]!).get(`/api/favorites/stats/${savers[1]}`)).body,
      ).toEqual({ postFavoritesReceived: 0, peopleFavoritesReceived: 1 })

      const foreign = await sid.get(`/api/favorites/stats/${ownerId}`)
      expect(foreign.status).toBe(403)
      expect(foreign.text).not.toContain('FavoritesReceived')
      expect((await app.clientFor(null).get(`/api/favorites/stats/${ownerId}`)).status).toBe(401)
    },
    EVENT_WAIT_MS * 2,
  )
})
