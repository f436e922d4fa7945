import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { KNOWN_POSTS_COLLECTION } from './posts/known-posts'
import { PROFILES_COLLECTION, type ProfileDocument } from './profiles/profile-document'
import { toPersonView } from './profiles/profile-views'
import {
  EVENT_WAIT_MS,
  postEvent,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from './test/people-test-app'

// Views that leak: each answer below is built with fields its schema does not list, so what
// reaches the client proves the response schema is the last guard (fast-json-stringify writes
// only the listed properties).
jest.mock('./profiles/profile-views', () => {
  const actual = jest.requireActual<typeof import('./profiles/profile-views')>(
    './profiles/profile-views',
  )
  type Profile = Parameters<typeof actual.toSelfView>[0]
  return {
    ...actual,
    toPersonView: (profile: Profile, viewerId: string | null, now?: Date) => ({
      ...actual.toPersonView(profile, viewerId, now),
      email: profile.email,
      phoneNumber: profile.phoneNumber,
      dateOfBirth: profile.dateOfBirth,
      contactViewers: profile.contactViewers ?? [],
      hiddenContacts: profile.worker?.contacts ?? [],
    }),
    toSelfView: (profile: Profile, now?: Date) => ({
      ...actual.toSelfView(profile, now),
      contactViewers: profile.contactViewers ?? [],
      registeredAt: profile.registeredAt,
    }),
  }
})
jest.mock('./requests/people-request-views', () => {
  const actual = jest.requireActual<typeof import('./requests/people-request-views')>(
    './requests/people-request-views',
  )
  type Args = Parameters<typeof actual.sentView>
  return {
    ...actual,
    sentView: (...args: Args) => ({ ...actual.sentView(...args), outbox: ['leaked'] }),
    receivedView: (...args: Args) => ({ ...actual.receivedView(...args), outbox: ['leaked'] }),
  }
})

/** Every route the people service answers behind the gateway, by its success status. */
const PUBLIC_ROUTES: Array<{ method: string; path: string; success: number; secured: boolean }> = [
  { method: 'get', path: '/api/users/{id}', success: 200, secured: true },
  { method: 'put', path: '/api/users/{id}', success: 200, secured: true },
  { method: 'delete', path: '/api/users/{id}', success: 200, secured: true },
  { method: 'put', path: '/api/users/{userId}/worker-profile', success: 200, secured: true },
  { method: 'patch', path: '/api/users/{userId}/worker-status', success: 200, secured: true },
  { method: 'get', path: '/api/people', success: 200, secured: false },
  { method: 'get', path: '/api/people/categories', success: 200, secured: true },
  { method: 'post', path: '/api/people/requests', success: 201, secured: true },
  { method: 'get', path: '/api/people/requests/sent', success: 200, secured: true },
  { method: 'get', path: '/api/people/requests/received', success: 200, secured: true },
  { method: 'patch', path: '/api/people/requests/{requestId}', success: 200, secured: true },
  { method: 'delete', path: '/api/people/requests/{requestId}', success: 204, secured: true },
  {
    method: 'delete',
    path: '/api/people/requests/received/{requestId}',
    success: 204,
    secured: true,
  },
  { method: 'get', path: '/api/people/ratings/rateable', success: 200, secured: true },
  { method: 'put', path: '/api/people/ratings/{requestId}', success: 201, secured: true },
  { method: 'get', path: '/api/people/stats/{userId}', success: 200, secured: true },
]

const PRIVATE_FIELDS = ['email', 'phoneNumber', 'dateOfBirth', 'contactViewers', 'hiddenContacts']

interface Operation {
  tags?: string[]
  summary?: string
  security?: Array<Record<string, string[]>>
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>
}
interface JsonSchema {
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
}

describe('people service: the API described, and response schemas as the guard of privacy', () => {
  let people: PeopleTestApp
  let aliceId: string
  let bobId: string

  beforeAll(async () => {
    people = await startPeopleTestApp('people_openapi')
    aliceId = await people.registerUser('Alice', 'Hidden', { dateOfBirth: '1990-06-15' })
    bobId = await people.registerUser('Bob', 'Owner')
    const saved = await people
      .clientFor(aliceId)
      .put(`/api/users/${aliceId}/worker-profile`, workerProfileBody())
    expect(saved.status).toBe(200)
  })

  afterAll(async () => {
    await people?.stop()
  })

  it('documents every route with its tag, summary, security and the schema of each answer', async () => {
    const answer = await people.clientFor(null).get('/openapi.json')
    expect(answer.status).toBe(200)
    const paths = answer.body.paths as Record<string, Record<string, Operation>>
    for (const route of PUBLIC_ROUTES) {
      const operation = paths[route.path]?.[route.method]
      expect({ route, documented: !!operation }).toEqual({ route, documented: true })
      expect(operation!.tags).toEqual(['people'])
      expect(operation!.summary).toEqual(expect.any(String))
      const success = operation!.responses[String(route.success)]
      expect({ route, success: !!success }).toEqual({ route, success: true })
      if (route.success !== 204) {
        expect(success!.content?.['application/json']?.schema).toBeDefined()
      }
      expect(operation!.security).toContainEqual({ bearerAuth: [] })
      if (route.secured) {
        expect(operation!.security).not.toContainEqual({})
        expect(operation!.responses['401']?.content?.['application/json']?.schema).toBeDefined()
      }
    }
    // Operators' routes stay out of the public API.
    expect(Object.keys(paths)).not.toEqual(expect.arrayContaining(['/healthz']))
  })

  it('documents the person view without a private field and the self view with them', async () => {
    const paths = (await people.clientFor(null).get('/openapi.json')).body.paths
    const schemaOf = (path: string, method: string) =>
      paths[path][method].responses['200'].content['application/json'].schema as JsonSchema
    const card = schemaOf('/api/people', 'get').properties!.people!.items!
    for (const field of PRIVATE_FIELDS) expect(Object.keys(card.properties!)).not.toContain(field)
    const [self, person] = schemaOf('/api/users/{id}', 'get').anyOf!
    expect(Object.keys(self!.properties!)).toEqual(
      expect.arrayContaining(['email', 'phoneNumber', 'dateOfBirth', 'deletion']),
    )
    expect(Object.keys(person!.properties!).sort()).toEqual(Object.keys(card.properties!).sort())
  })

  it('answers a stranger without the private fields a person view carried', async () => {
    const stored = await people.db
      .collection<ProfileDocument>(PROFILES_COLLECTION)
      .findOne({ _id: aliceId })
    // The view itself leaks (mocked above)...
    expect(toPersonView(stored!, bobId)).toMatchObject({ email: 'alice.hidden@example.com' })
    // ...and the answer does not.
    const seen = await people.clientFor(bobId).get(`/api/users/${aliceId}`)
    expect(seen.status).toBe(200)
    expect(seen.body).toMatchObject({ _id: aliceId, name: 'Alice Hidden', isWorker: true })
    expect(typeof seen.body.age).toBe('number')
    for (const field of PRIVATE_FIELDS) expect(seen.body).not.toHaveProperty(field)
    expect(seen.text).not.toContain('1990-06-15')
    expect(seen.text).not.toContain('(303) 555-0199')
    expect(seen.body.contacts).toEqual([{ value: 'mover@example.com', visibility: 'public' }])
  })

  it('answers the feed and the search without the private fields the cards carried', async () => {
    for (const viewer of [null, bobId]) {
      for (const query of ['limit=50', 'search=Hidden&limit=10']) {
        const feed = await people.clientFor(viewer).get(`/api/people?${query}`)
        expect(feed.status).toBe(200)
        const card = feed.body.people.find((person: { _id: string }) => person._id === aliceId)
        expect(card).toMatchObject({ name: 'Alice Hidden', title: 'House mover' })
        for (const field of PRIVATE_FIELDS) expect(card).not.toHaveProperty(field)
        expect(feed.text).not.toContain('alice.hidden@example.com')
        expect(feed.text).not.toContain('(303) 555-0199')
      }
    }
  })

  it('answers the user their own account fields and nothing the self view is not meant to send', async () => {
    const own = await people.clientFor(aliceId).get(`/api/users/${aliceId}`)
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({
      _id: aliceId,
      email: 'alice.hidden@example.com',
      phoneNumber: '(212) 555-0100',
      dateOfBirth: '1990-06-15',
      deletion: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    expect(own.body.contacts).toHaveLength(2)
    expect(own.body).not.toHaveProperty('contactViewers')
    expect(own.body).not.toHaveProperty('registeredAt')
    expect(own.body).not.toHaveProperty('hiddenContacts')
  })

  it('answers requests to people without the fields their views carried beyond the schema', async () => {
    const postId = new ObjectId().toHexString()
    await publishEvent(
      Topics.jobsPosts,
      postEvent('post.created', { postId, ownerId: bobId, title: 'Move a piano' }),
    )
    await waitFor(
      async () =>
        (await people.db.collection(KNOWN_POSTS_COLLECTION).findOne({ _id: postId as never })) !==
        null,
      { timeoutMs: EVENT_WAIT_MS, what: 'the post known to people' },
    )
    const sent = await people
      .clientFor(bobId)
      .post('/api/people/requests', { postID: postId, requestedID: aliceId })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({ requestedPerson: { _id: aliceId, name: 'Alice Hidden' } })
    expect(sent.body).not.toHaveProperty('outbox')
    const lists = [
      await people.clientFor(bobId).get('/api/people/requests/sent'),
      await people.clientFor(aliceId).get('/api/people/requests/received'),
    ]
    for (const list of lists) {
      expect(list.body).toHaveLength(1)
      expect(list.body[0]).not.toHaveProperty('outbox')
    }
  })
})
