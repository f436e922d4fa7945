import {
  documentationProblems,
  type OpenApiDocument,
  type PublicRoute,
} from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startFavoritesTestApp,
  type FavoritesTestApp,
} from './test/favorites-test-app'

// The views are stubbed to send fields no schema lists (what a careless edit of a view would
// leak), so the tests below see what the response schemas let through.
jest.mock('./favorites/favorite-views', () => {
  const actual = jest.requireActual('./favorites/favorite-views')
  return {
    ...actual,
    postEntry: (...args: unknown[]) => {
      const entry = actual.postEntry(...args)
      return {
        ...entry,
        userId: 'the saver',
        favoriteID: { ...entry.favoriteID, hiddenLocation: '12 Secret Street', requesters: ['x'] },
      }
    },
    personEntry: (...args: unknown[]) => {
      const entry = actual.personEntry(...args)
      return {
        ...entry,
        targetOwnerId: 'the worker',
        favoriteID: {
          ...entry.favoriteID,
          email: 'wanda@example.com',
          phoneNumber: '(212) 555-0100',
          dateOfBirth: '1990-06-15',
          contacts: [{ value: 'mover@example.com', visibility: 'public', hiddenNote: 'x' }],
        },
      }
    },
  }
})

/** Every public route of the service and its success status. */
const PUBLIC_ROUTES: PublicRoute[] = [
  ['get', '/api/favorites/posts/{userId}', 200],
  ['post', '/api/favorites/posts', 201],
  ['delete', '/api/favorites/posts/{userId}/{postId}', 204],
  ['get', '/api/favorites/people/{userId}', 200],
  ['post', '/api/favorites/people', 201],
  ['delete', '/api/favorites/people/{userId}/{personId}', 204],
  ['get', '/api/favorites/stats/{userId}', 200],
]

describe('favorites service: the API document and the response schemas (real servers)', () => {
  let app: FavoritesTestApp

  beforeAll(async () => {
    app = await startFavoritesTestApp('favorites_openapi')
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  it('documents every public route with its success answer, 401 and the bearer token', async () => {
    const answer = await app.clientFor(null).get<OpenApiDocument>('/openapi.json')
    expect(answer.status).toBe(200)
    expect(
      documentationProblems(answer.body, PUBLIC_ROUTES, {
        tag: 'favorites',
        security: [{ bearerAuth: [] }],
      }),
    ).toEqual([])
  })

  it('a saved post in the list and in the save answer carries only the guest fields', async () => {
    const ownerId = await app.registerUser('Olga', 'Owner')
    const saverId = await app.registerUser('Sid', 'Saver')
    const saver = app.clientFor(saverId)
    const postId = await app.announcePost(ownerId, 'Move a piano')

    const saved = await saver.post('/api/favorites/posts', { userId: saverId, postId })
    const list = await saver.get(`/api/favorites/posts/${saverId}`)
    expect(saved.status).toBe(201)
    for (const entry of [saved.body, list.body[0]]) {
      expect(Object.keys(entry).sort()).toEqual(['createdAt', 'favoriteID', 'updatedAt'])
      expect(entry.favoriteID).toMatchObject({ _id: postId, title: 'Move a piano' })
      expect(entry.favoriteID).not.toHaveProperty('hiddenLocation')
      expect(entry.favoriteID).not.toHaveProperty('requesters')
    }
    expect(list.text).not.toContain('Secret Street')

    const removed = await saver.delete(`/api/favorites/posts/${saverId}/${postId}`)
    expect({ status: removed.status, text: removed.text }).toEqual({ status: 204, text: '' })
  })

  it('a saved worker in the list and in the save answer carries only the stranger fields', async () => {
    const saverId = await app.registerUser('Sue', 'Saver')
    const saver = app.clientFor(saverId)
    const workerId = await app.registerUser('Wanda', 'Worker')
    await app.saveWorkerProfile(workerId)

    const saved = await saver.post('/api/favorites/people', { userID: saverId, personID: workerId })
    const list = await saver.get(`/api/favorites/people/${saverId}`)
    expect(saved.status).toBe(201)
    for (const entry of [saved.body, list.body[0]]) {
      expect(Object.keys(entry).sort()).toEqual([
        'createdAt',
        'favoriteID',
        'personID',
        'updatedAt',
      ])
      expect(entry.favoriteID).toMatchObject({ _id: workerId, firstName: 'Wanda' })
      for (const privateField of ['email', 'phoneNumber', 'dateOfBirth']) {
        expect(entry.favoriteID).not.toHaveProperty(privateField)
      }
      expect(entry.favoriteID.contacts).toEqual([
        { value: 'mover@example.com', visibility: 'public' },
      ])
    }
    expect(list.text).not.toContain('555-0100')
  })

  it('drops unknown body fields and answers a mistyped one with 400, converting nothing', async () => {
    const ownerId = await app.registerUser('Otto', 'Owner')
    const saverId = await app.registerUser('Sam', 'Saver')
    const saver = app.clientFor(saverId)
    const postId = await app.announcePost(ownerId, 'Paint a fence')

    // An extra field is ignored, not stored and not an error.
    const saved = await saver.post('/api/favorites/posts', {
      userId: saverId,
      postId,
      targetOwnerId: saverId,
    })
    expect(saved.status).toBe(201)
    const stored = await app.db.collection('favorites').findOne({ userId: saverId })
    expect(stored).toMatchObject({ targetOwnerId: ownerId })

    // Nothing is converted: the number 123 is not the post id "123", nor false the text "false".
    for (const body of [
      { userId: saverId, postId: { id: postId } },
      { userId: saverId, postId: 123 },
      { userId: false, postId },
    ]) {
      const mistyped = await saver.post('/api/favorites/posts', body)
      expect({ body, status: mistyped.status }).toEqual({ body, status: 400 })
      expect(mistyped.body).toEqual({ message: expect.any(String), code: 'VALIDATION_FAILED' })
    }
    const person = await saver.post('/api/favorites/people', { userID: saverId, personID: 7 })
    expect(person.body).toEqual({
      message: 'Invalid personID: Expected string',
      code: 'VALIDATION_FAILED',
    })
  })
})
