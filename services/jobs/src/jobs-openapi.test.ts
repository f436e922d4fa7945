import type * as PostViewModule from './posts/post-view'
import { toPostView } from './posts/post-view'
import type * as RequestViewsModule from './requests/request-views'
import { requestCreatedView } from './requests/request-views'
import type * as JobsStatsModule from './stats/jobs-stats'
import { createJobsStats } from './stats/jobs-stats'
import { USERS_COLLECTION } from './users/user-directory'
import { startJobsTestApp, type JobsTestApp } from './test/jobs-test-app'

// Every view of this service is stubbed to return fields its schema does not list (stored
// fields a view must never send), so these tests show the response schemas drop them.
jest.mock('./posts/post-view', () => {
  const actual = jest.requireActual<typeof PostViewModule>('./posts/post-view')
  return {
    ...actual,
    toPostView: (...args: Parameters<typeof actual.toPostView>) => ({
      ...actual.toPostView(...args),
      searchWords: ['leaked'],
      categoryExplicit: true,
    }),
  }
})
jest.mock('./requests/request-views', () => {
  const actual = jest.requireActual<typeof RequestViewsModule>('./requests/request-views')
  return {
    ...actual,
    requestCreatedView: (...args: Parameters<typeof actual.requestCreatedView>) => ({
      ...actual.requestCreatedView(...args),
      ownerId: 'leaked-owner',
    }),
    requestDecidedView: (...args: Parameters<typeof actual.requestDecidedView>) => ({
      ...actual.requestDecidedView(...args),
      requesterId: 'leaked-requester',
    }),
    receivedRequestsView: async (...args: Parameters<typeof actual.receivedRequestsView>) =>
      (await actual.receivedRequestsView(...args)).map((entry) => ({
        ...entry,
        ownerId: 'leaked-owner',
        requester: { ...entry.requester, phoneNumber: '5551234567' },
      })),
    sentRequestsView: async (...args: Parameters<typeof actual.sentRequestsView>) =>
      (await actual.sentRequestsView(...args)).map((entry) => ({
        ...entry,
        post: { ...entry.post, owner: { ...entry.post.owner, email: 'owner@example.com' } },
      })),
  }
})
jest.mock('./stats/jobs-stats', () => {
  const actual = jest.requireActual<typeof JobsStatsModule>('./stats/jobs-stats')
  return {
    ...actual,
    createJobsStats: (...args: Parameters<typeof actual.createJobsStats>) => {
      const stats = actual.createJobsStats(...args)
      return { of: async (userId: string) => ({ ...(await stats.of(userId)), userId }) }
    },
  }
})

const LEAKS = ['searchWords', 'categoryExplicit', 'leaked', 'phoneNumber', 'owner@example.com']

interface Operation {
  tags?: string[]
  summary?: string
  security?: unknown[]
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}

/** Every public route: method, OpenAPI path, success status, and whether a token is required. */
const ROUTES: Array<[method: string, path: string, success: number, secured: boolean]> = [
  ['get', '/api/jobs', 200, false],
  ['post', '/api/jobs', 201, true],
  ['get', '/api/jobs/categories', 200, true],
  ['get', '/api/jobs/my-jobs', 200, true],
  ['get', '/api/jobs/{id}', 200, false],
  ['put', '/api/jobs/{id}', 200, true],
  ['delete', '/api/jobs/{id}', 204, true],
  ['post', '/api/jobs/{id}/fill', 200, true],
  ['post', '/api/jobs/{id}/relist', 200, true],
  ['post', '/api/jobs/requests', 201, true],
  ['get', '/api/jobs/user/{userId}/received-requests', 200, true],
  ['get', '/api/jobs/user/{userId}/sent-requests', 200, true],
  ['patch', '/api/jobs/requests/{requestId}', 200, true],
  ['delete', '/api/jobs/requests/{requestId}', 204, true],
  ['post', '/api/jobs/requests/{requestId}/counter-offer', 201, true],
  ['patch', '/api/jobs/requests/{requestId}/counter-offer', 200, true],
  ['get', '/api/jobs/stats/{userId}', 200, true],
]

describe('jobs service: OpenAPI document and response schemas', () => {
  let jobs: JobsTestApp

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_openapi')
  })
  afterAll(() => jobs.stop())

  /** A user with a worker profile, written where the user directory keeps it. */
  async function newWorker(): Promise<string> {
    const userId = jobs.newUserId()
    await jobs.db.collection(USERS_COLLECTION).insertOne({
      _id: userId as never,
      firstName: 'Wanda',
      lastName: 'Worker',
      email: 'wanda@example.com',
      isWorker: true,
      title: 'Mover',
      skills: ['Lifting'],
      profilePicture: null,
      updatedAt: new Date(),
    })
    return userId
  }

  const expectNoLeak = (text: string) => {
    for (const leak of LEAKS) expect(text).not.toContain(leak)
  }

  it('stubs views that do return the extra fields (what the tests below rely on)', async () => {
    const at = new Date()
    const post = { _id: 'p', userID: 'u', createdAt: at, updatedAt: at }
    expect(toPostView(post as never, null)).toHaveProperty('searchWords')
    const request = { _id: 'r', postId: 'p', status: 'pending', createdAt: at, updatedAt: at }
    expect(requestCreatedView(request as never)).toHaveProperty('ownerId')
    expect(await createJobsStats(jobs.db).of('nobody')).toHaveProperty('userId')
  })

  it('documents every public route with its success answer, 401 where a token is required, and nothing else under /api/jobs', async () => {
    const answer = await jobs.app.inject({ method: 'GET', url: '/openapi.json' })
    expect(answer.statusCode).toBe(200)
    const document = answer.json<{ paths: Record<string, Record<string, Operation>> }>()

    for (const [method, path, success, secured] of ROUTES) {
      const operation = document.paths[path]?.[method]
      expect({ method, path, documented: operation !== undefined }).toEqual({
        method,
        path,
        documented: true,
      })
      expect(operation!.tags).toEqual(['jobs'])
      expect(operation!.summary).toEqual(expect.any(String))
      expect(operation!.security).toEqual(expect.any(Array))
      const successAnswer = operation!.responses[String(success)]
      expect(successAnswer).toBeDefined()
      if (success !== 204) {
        expect(successAnswer!.content?.['application/json']?.schema).toBeDefined()
      }
      const unauthorized = operation!.responses['401']?.content?.['application/json']?.schema
      if (secured) expect(unauthorized).toBeDefined()
    }

    const documented = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/jobs'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
    expect(documented.sort()).toEqual(ROUTES.map(([method, path]) => `${method} ${path}`).sort())
  })

  it('sends a post without the fields its schema does not list, in details, lists, the feed and search', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const stranger = jobs.clientFor(jobs.newUserId())
    const guest = jobs.clientFor(null)
    const created = await owner.post('/api/jobs', {
      title: 'Schema guard marmot',
      where: 'Boston MA',
      displayLocation: false,
    })
    expect(created.status).toBe(201)
    expectNoLeak(created.text)
    // Dates keep the wire format of before: ISO 8601 text in UTC.
    expect(created.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    const id = created.body._id as string

    const answers = [
      await owner.get(`/api/jobs/${id}`),
      await stranger.get(`/api/jobs/${id}`),
      await owner.get('/api/jobs/my-jobs'),
      await owner.put(`/api/jobs/${id}`, { infos: 'Carry it with care' }),
      // Filled, then relisted: live again for the feed and search below.
      await owner.post(`/api/jobs/${id}/fill`, undefined),
      await owner.post(`/api/jobs/${id}/relist`, undefined),
      await guest.get('/api/jobs?page=1'),
      await owner.get('/api/jobs?page=1'),
      await guest.get('/api/jobs?search=marmot'),
    ]
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.text).toContain('Schema guard marmot')
      expectNoLeak(answer.text)
    }
    expect((await stranger.get(`/api/jobs/${id}`)).body.location).toBeNull()
  })

  it('sends requests, both request lists and a decision without the fields their schemas do not list', async () => {
    const owner = jobs.clientFor(jobs.newUserId())
    const workerId = await newWorker()
    const worker = jobs.clientFor(workerId)
    const { body: post } = await owner.post('/api/jobs', {
      title: 'Schema guard request',
      where: 'Boston MA',
    })

    const sent = await worker.post('/api/jobs/requests', { postID: post._id })
    expect(sent.status).toBe(201)
    expect(sent.body).toEqual({
      _id: expect.any(String),
      postId: post._id,
      status: 'pending',
      createdAt: expect.any(String),
    })

    const decided = await owner.patch(`/api/jobs/requests/${sent.body._id}`, {
      status: 'accepted',
    })
    expect(decided.status).toBe(200)
    expect(Object.keys(decided.body).sort()).toEqual([
      '_id',
      'createdAt',
      'postId',
      'status',
      'updatedAt',
    ])

    const received = await owner.get(`/api/jobs/user/${owner.userId}/received-requests`)
    expect(received.status).toBe(200)
    expect(received.body).toHaveLength(1)
    expect(received.text).not.toContain('leaked-owner')
    expectNoLeak(received.text)

    const mine = await worker.get(`/api/jobs/user/${workerId}/sent-requests`)
    expect(mine.status).toBe(200)
    expect(mine.body).toHaveLength(1)
    expect(mine.body[0].post.owner).toEqual({ _id: owner.userId, name: expect.any(String) })
    expectNoLeak(mine.text)
  })

  it("sends the user's stats without fields the schema does not list", async () => {
    const userId = jobs.newUserId()
    const stats = await jobs.clientFor(userId).get(`/api/jobs/stats/${userId}`)
    expect(stats.status).toBe(200)
    expect(Object.keys(stats.body).sort()).toEqual([
      'acceptanceRate',
      'daily',
      'posts',
      'requestsReceived',
      'requestsSent',
    ])
  })
})
