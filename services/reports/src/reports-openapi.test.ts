import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import {
  documentationProblems,
  publishEvent,
  waitFor,
  type OpenApiDocument,
  type PublicRoute,
} from '@marketplace/service-kit/testing'
import {
  ADMIN_ROLES,
  EVENT_WAIT_MS,
  startReportsTestApp,
  type ReportsTestApp,
} from './test/reports-test-app'

// The views are stubbed to send fields no schema lists (what a careless edit of a view would
// leak), so the tests below see what the response schemas let through.
jest.mock('./reports/report-views', () => {
  const actual = jest.requireActual('./reports/report-views')
  return {
    ...actual,
    submittedView: (...args: unknown[]) => ({
      ...actual.submittedView(...args),
      reporterId: 'the reporter',
      targetOwnerId: 'the owner',
      closedBy: 'a moderator',
      outbox: [{ type: 'report.created' }],
    }),
    moderationView: (...args: unknown[]) => {
      const view = actual.moderationView(...args)
      const target =
        view.target &&
        ('post' in view.target
          ? { ...view.target, post: { ...view.target.post, hiddenLocation: '12 Secret Street' } }
          : 'message' in view.target
            ? {
                ...view.target,
                message: {
                  ...view.target.message,
                  sender: { ...view.target.message.sender, email: 'secret@example.com' },
                  excerpt: view.target.message.excerpt.map((entry: object) => ({
                    ...entry,
                    senderId: 'the owner',
                  })),
                },
              }
            : {
                ...view.target,
                person: {
                  ...view.target.person,
                  email: 'secret@example.com',
                  dateOfBirth: '1990-06-15',
                },
              })
      return {
        ...view,
        reporter: { ...view.reporter, email: 'reporter@example.com' },
        target,
        targetOwnerId: 'the owner',
        outbox: [{ type: 'report.resolved' }],
      }
    },
  }
})

const PUBLIC_ROUTES: PublicRoute[] = [
  ['post', '/api/reports/posts', 201],
  ['post', '/api/reports/people', 201],
  ['get', '/api/reports', 200],
  ['get', '/api/reports/{reportId}', 200],
  ['patch', '/api/reports/{reportId}', 200],
]

const SUBMITTED_FIELDS = [
  '_id',
  'createdAt',
  'description',
  'status',
  'targetId',
  'targetType',
  'type',
]
const MODERATION_FIELDS = [
  '_id',
  'action',
  'ageHours',
  'closedAt',
  'closedBy',
  'createdAt',
  'description',
  'openReportsOnTarget',
  'overdue',
  'reasonLabel',
  'reporter',
  'reviewDueAt',
  'status',
  'target',
  'targetId',
  'targetType',
  'type',
]

describe('reports service: the API document and the response schemas (real servers)', () => {
  let app: ReportsTestApp
  type Client = ReturnType<ReportsTestApp['clientFor']>
  let ownerId: string
  let reporter: Client
  let admin: Client

  beforeAll(async () => {
    app = await startReportsTestApp('reports_openapi')
    ownerId = await app.registerUser('Olga', 'Owner')
    reporter = app.clientFor(await app.registerUser('Rita', 'Reporter'))
    admin = app.clientFor(await app.registerUser('Ada', 'Admin'), undefined, ADMIN_ROLES)
  }, EVENT_WAIT_MS * 2)

  afterAll(async () => {
    await app?.stop()
  })

  it('documents every public route with its success answer, 401 and the bearer token', async () => {
    const answer = await app.clientFor(null).get<OpenApiDocument>('/openapi.json')
    expect(answer.status).toBe(200)
    const { paths } = answer.body
    expect(
      documentationProblems(answer.body, PUBLIC_ROUTES, {
        tag: 'reports',
        security: [{ bearerAuth: [] }],
      }),
    ).toEqual([])
    // Every answer of this service is an object.
    for (const [method, path, success] of PUBLIC_ROUTES) {
      expect(
        paths[path]![method]!.responses[String(success)]!.content?.['application/json']?.schema,
      ).toEqual(expect.objectContaining({ type: 'object' }))
    }
    // The moderation routes also answer 403 to whoever is not a moderator.
    for (const [method, path] of PUBLIC_ROUTES.filter(
      ([, path]) => !path.endsWith('s/posts') && !path.endsWith('/people'),
    )) {
      expect(paths[path]![method]!.responses['403']).toBeDefined()
    }
  })

  it('answers a reporter with their report’s own fields only, whatever the view adds', async () => {
    const postId = await app.announcePost(ownerId, 'Suspicious job')
    const filed = await reporter.post('/api/reports/posts', { postId, type: 'scam' })
    expect(filed.status).toBe(201)
    expect(Object.keys(filed.body).sort()).toEqual(SUBMITTED_FIELDS)
    for (const leak of ['the reporter', 'the owner', 'a moderator', 'report.created']) {
      expect(filed.text).not.toContain(leak)
    }
  })

  it('shows moderators a report’s listed fields only, in the queue, the details and a resolve', async () => {
    const postId = await app.announcePost(ownerId, 'Reported post')
    const workerId = await app.registerUser('Wes', 'Worker')
    await app.saveWorkerProfile(workerId)
    const onPost = await reporter.post('/api/reports/posts', { postId, type: 'other' })
    const onPerson = await reporter.post('/api/reports/people', {
      reportedId: workerId,
      type: 'inappropriate',
    })

    const queue = await admin.get('/api/reports')
    const postDetails = await admin.get(`/api/reports/${onPost.body._id}`)
    const personDetails = await admin.get(`/api/reports/${onPerson.body._id}`)
    const resolved = await admin.patch(`/api/reports/${onPerson.body._id}`, { action: 'dismiss' })
    expect(resolved.status).toBe(200)
    const views = [...queue.body.reports, postDetails.body, personDetails.body, resolved.body]
    expect(views.length).toBeGreaterThanOrEqual(5)
    for (const view of views) {
      expect(Object.keys(view).sort()).toEqual(MODERATION_FIELDS)
      expect(Object.keys(view.reporter).sort()).toEqual(['_id', 'name'])
    }
    expect(postDetails.body.target.post).toMatchObject({ _id: postId, title: 'Reported post' })
    expect(personDetails.body.target.person).toMatchObject({ _id: workerId, name: 'Wes Worker' })
    for (const answer of [queue, postDetails, personDetails, resolved]) {
      for (const leak of [
        'Secret Street',
        'secret@example.com',
        'reporter@example.com',
        '1990-06-15',
        'the owner',
      ]) {
        expect(answer.text).not.toContain(leak)
      }
    }
  })

  it('shows moderators a reported message’s listed fields only', async () => {
    const senderId = await app.registerUser('Sam', 'Sender')
    const reportId = new ObjectId().toHexString()
    const conversationId = `pr:${new ObjectId().toHexString()}`
    const messageId = `${conversationId}:1`
    const at = new Date().toISOString()
    await publishEvent(
      Topics.conversations,
      newEvent('message.reported', {
        aggregateId: conversationId,
        actorId: null,
        data: {
          reportId,
          messageId,
          conversationId,
          reporterId: app.newUserId(),
          senderId,
          reason: 'scam',
          description: null,
          excerpt: [{ messageId, senderName: 'Sam Sender', text: 'Pay me first', sentAt: at }],
          createdAt: at,
        },
      }),
    )
    const details = await waitFor(
      async () => {
        const answer = await admin.get(`/api/reports/${reportId}`)
        return answer.status === 200 ? answer : undefined
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'the reported message in the queue' },
    )
    expect(Object.keys(details.body).sort()).toEqual(MODERATION_FIELDS)
    expect(Object.keys(details.body.target).sort()).toEqual(['message', 'takenDown'])
    const { message } = details.body.target
    expect(Object.keys(message).sort()).toEqual(['_id', 'conversationId', 'excerpt', 'sender'])
    expect(message.sender).toEqual({ _id: senderId, name: 'Sam Sender' })
    expect(Object.keys(message.excerpt[0]).sort()).toEqual([
      '_id',
      'reported',
      'senderName',
      'sentAt',
      'text',
    ])
    for (const leak of ['secret@example.com', 'the owner', 'reporter@example.com']) {
      expect(details.text).not.toContain(leak)
    }
  })
})
