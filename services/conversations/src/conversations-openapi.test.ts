import {
  documentationProblems,
  type OpenApiDocument,
  type PublicRoute,
} from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
} from './test/conversations-test-app'

// The views are stubbed to send fields no schema lists (what a careless edit of a view would
// leak), so the tests below see what the response schemas let through.
jest.mock('./conversations/conversation-views', () => {
  const actual = jest.requireActual('./conversations/conversation-views')
  return {
    ...actual,
    conversationView: (...args: unknown[]) => {
      const view = actual.conversationView(...args)
      return {
        ...view,
        names: { requester: 'Secret Name' },
        lastRead: { requester: 3 },
        otherParty: { ...view.otherParty, email: 'hidden@example.com' },
      }
    },
  }
})
jest.mock('./messages/message-views', () => {
  const actual = jest.requireActual('./messages/message-views')
  return {
    ...actual,
    messageView: (...args: unknown[]) => ({
      ...actual.messageView(...args),
      seq: 1,
      storedText: 'the text before the take-down',
    }),
  }
})

/** Every public route of the service and its success status. */
const PUBLIC_ROUTES: PublicRoute[] = [
  ['get', '/api/conversations', 200],
  ['get', '/api/conversations/unread', 200],
  ['get', '/api/conversations/by-request/{requestId}', 200],
  ['get', '/api/conversations/{id}', 200],
  ['get', '/api/conversations/{id}/messages', 200],
  ['post', '/api/conversations/{id}/messages', 201],
  ['post', '/api/conversations/{id}/read', 200],
  ['post', '/api/conversations/{id}/messages/{messageId}/report', 201],
]

describe('conversations service: the API document and the response schemas (real servers)', () => {
  let app: ConversationsTestApp

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_openapi')
    // This run's groups are new: let them read the broker's history (every earlier suite's
    // events) before the tests publish theirs.
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  it('documents every public route with its success answer, 401 and the bearer token', async () => {
    const answer = await app.clientFor(null).get<OpenApiDocument>('/openapi.json')
    expect(answer.status).toBe(200)
    expect(
      documentationProblems(answer.body, PUBLIC_ROUTES, {
        tag: 'conversations',
        security: [{ bearerAuth: [] }],
      }),
    ).toEqual([])
  })

  it(
    'conversations and messages carry only the fields their schemas list',
    async () => {
      const workerId = await app.registerUser('Wanda', 'Worker')
      const ownerId = await app.registerUser('Olga', 'Owner')
      const request = await app.requestPost(workerId, ownerId)
      const worker = app.clientFor(workerId)
      const sent = await worker.post(`/api/conversations/${request.conversationId}/messages`, {
        text: 'Hello',
      })
      expect(sent.status).toBe(201)
      const history = await worker.get(`/api/conversations/${request.conversationId}/messages`)
      for (const message of [sent.body, history.body.items[0]]) {
        expect(Object.keys(message).sort()).toEqual([
          '_id',
          'clientId',
          'conversationId',
          'seen',
          'senderId',
          'sentAt',
          'takenDown',
          'text',
        ])
      }
      const list = await worker.get('/api/conversations')
      const one = await worker.get(`/api/conversations/${request.conversationId}`)
      for (const view of [list.body.items[0], one.body]) {
        expect(view).not.toHaveProperty('names')
        expect(view).not.toHaveProperty('lastRead')
        expect(Object.keys(view.otherParty).sort()).toEqual(['name', 'profilePicture', 'userId'])
      }
      for (const text of [history.text, list.text, one.text]) {
        expect(text).not.toContain('Secret Name')
        expect(text).not.toContain('hidden@example.com')
        expect(text).not.toContain('before the take-down')
      }
    },
    EVENT_WAIT_MS * 2,
  )

  it('drops unknown body fields and answers a mistyped one with 400, converting nothing', async () => {
    const workerId = await app.registerUser('Will', 'Worker')
    const ownerId = await app.registerUser('Otto', 'Owner')
    const request = await app.requestPost(workerId, ownerId)
    const worker = app.clientFor(workerId)
    const path = `/api/conversations/${request.conversationId}/messages`
    const sent = await worker.post(path, { text: 'Hi', senderId: ownerId, takenDown: true })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({ senderId: workerId, takenDown: false })
    for (const body of [
      { text: ['Hi'] },
      { text: 'Hi', clientId: 7 },
      { text: 'Hi', clientId: '' },
    ]) {
      const refused = await worker.post(path, body)
      expect({ body, status: refused.status, code: refused.body.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_FAILED',
      })
    }
  })
})
