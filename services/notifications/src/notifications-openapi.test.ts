import type { NotificationDocument } from './notifications/notification-document'
import { NOTIFICATIONS_COLLECTION } from './notifications/notification-document'
import { RECIPIENTS_COLLECTION } from './recipients/recipients-repository'
import { startNotificationsTestApp, type NotificationsTestApp } from './test/notifications-test-app'

// Fields a view may carry by mistake (a stored document's owner, the outbox's bookkeeping):
// set by a test, added to every notification view, and never sent when the schema holds.
let mockViewLeak: Record<string, unknown> = {}
jest.mock('./notifications/notification-view', () => {
  const actual = jest.requireActual<typeof import('./notifications/notification-view')>(
    './notifications/notification-view',
  )
  return {
    ...actual,
    notificationView: (notification: NotificationDocument) => ({
      ...actual.notificationView(notification),
      ...mockViewLeak,
    }),
  }
})

interface OpenApiOperation {
  tags?: string[]
  summary?: string
  security?: unknown[]
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> }

/** Every public route of the service; the Socket.IO server is no HTTP route. */
const SECURED_ROUTES: Array<[method: string, path: string, success: string]> = [
  ['get', '/api/notifications', '200'],
  ['get', '/api/notifications/unread-count', '200'],
  ['patch', '/api/notifications/mark-all-read', '200'],
  ['delete', '/api/notifications/clear-read', '200'],
  ['get', '/api/notifications/preferences', '200'],
  ['put', '/api/notifications/preferences', '200'],
  ['patch', '/api/notifications/{id}/read', '200'],
  ['get', '/api/notifications/push/public-key', '200'],
  ['post', '/api/notifications/push/subscriptions', '200'],
  ['delete', '/api/notifications/push/subscriptions', '200'],
  ['get', '/api/notifications/saved-searches', '200'],
  ['post', '/api/notifications/saved-searches', '201'],
  ['patch', '/api/notifications/saved-searches/{id}', '200'],
  ['delete', '/api/notifications/saved-searches/{id}', '200'],
]
const GUEST_ROUTES: Array<[method: string, path: string, success: string]> = [
  ['post', '/api/email/send-email', '200'],
  // Opened from an e-mail, without a session: the signed link is the proof.
  ['post', '/api/notifications/saved-searches/unsubscribe', '200'],
]

describe('the notifications API, described and guarded by its schemas', () => {
  let app: NotificationsTestApp
  let document: OpenApiDocument

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_openapi')
    const answer = await app.app.inject({ method: 'GET', url: '/openapi.json' })
    expect(answer.statusCode).toBe(200)
    document = answer.json()
  })

  afterAll(async () => {
    await app?.stop()
  })

  afterEach(() => {
    mockViewLeak = {}
  })

  const operation = (method: string, path: string) => document.paths[path]?.[method]
  const schemaOf = (op: OpenApiOperation | undefined, status: string) =>
    op?.responses[status]?.content?.['application/json']?.schema

  it('documents every public route and nothing else', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    )
    expect(documented.sort()).toEqual(
      [...SECURED_ROUTES, ...GUEST_ROUTES].map(([method, path]) => `${method} ${path}`).sort(),
    )
  })

  it.each(SECURED_ROUTES)(
    '%s %s declares its success and its 401, and asks for a bearer token',
    (method, path, success) => {
      const op = operation(method, path)
      expect(op?.tags).toEqual(['notifications'])
      expect(op?.summary).toEqual(expect.any(String))
      expect(op?.security).toEqual([{ bearerAuth: [] }])
      expect(schemaOf(op, success)).toBeDefined()
      expect(schemaOf(op, '401')).toBeDefined()
    },
  )

  it('the support message is open to guests, and declares its 400, 429 and 503', () => {
    const op = operation('post', '/api/email/send-email')
    expect(op?.tags).toEqual(['notifications'])
    expect(op?.security).toEqual([])
    for (const status of ['200', '400', '429', '503']) expect(schemaOf(op, status)).toBeDefined()
    expect(op?.responses['401']).toBeUndefined()
  })

  it("a saved search's one-click unsubscribe is open without a session, and declares its 404", () => {
    const op = operation('post', '/api/notifications/saved-searches/unsubscribe')
    expect(op?.tags).toEqual(['notifications'])
    expect(op?.security).toEqual([])
    for (const status of ['200', '404']) expect(schemaOf(op, status)).toBeDefined()
    expect(op?.responses['401']).toBeUndefined()
  })

  it("sends a notification's listed fields only, even when its view carries more", async () => {
    const userId = app.newUserId()
    const createdAt = new Date('2025-05-01T09:30:00.000Z')
    await app.db.collection<NotificationDocument>(NOTIFICATIONS_COLLECTION).insertOne({
      _id: `openapi-event:${userId}`,
      userId,
      kind: 'post-favorite',
      message: 'Ava saved your post "Move a piano" to their favorites',
      link: '/settings-employer-jobs',
      isRead: false,
      status: 'unread',
      createdAt,
    })
    mockViewLeak = { userId, outbox: [{ type: 'notification.created' }] }

    const answer = await app.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { authorization: `Bearer ${app.tokenFor(userId)}` },
    })

    expect(answer.statusCode).toBe(200)
    expect(answer.json().notifications).toEqual([
      {
        _id: `openapi-event:${userId}`,
        kind: 'post-favorite',
        message: 'Ava saved your post "Move a piano" to their favorites',
        link: '/settings-employer-jobs',
        isRead: false,
        status: 'unread',
        // The wire format of before: the ISO string of the stored date.
        createdAt: '2025-05-01T09:30:00.000Z',
      },
    ])
  })

  it('sends the six preferences only, whatever else is stored with them', async () => {
    const userId = app.newUserId()
    await app.db.collection(RECIPIENTS_COLLECTION).insertOne({
      _id: userId as never,
      email: 'stored@example.test',
      preferences: { emailEnabled: false, smsEnabled: true },
      unreadCount: 4,
      updatedAt: new Date(),
    })

    const answer = await app.app.inject({
      method: 'GET',
      url: '/api/notifications/preferences',
      headers: { authorization: `Bearer ${app.tokenFor(userId)}` },
    })

    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toEqual({
      emailEnabled: false,
      mobileEnabled: false,
      postRequestsEnabled: true,
      postFavoritesEnabled: true,
      requestStatusEnabled: true,
      messagesEnabled: true,
    })
  })

  it('refuses a preference that is not true or false with its own message, not coerced', async () => {
    const userId = app.newUserId()
    const put = (payload: unknown) =>
      app.app.inject({
        method: 'PUT',
        url: '/api/notifications/preferences',
        headers: {
          authorization: `Bearer ${app.tokenFor(userId)}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(payload),
      })

    for (const value of [null, 'false', 0]) {
      const answer = await put({ emailEnabled: value })
      expect(answer.statusCode).toBe(400)
      expect(answer.json()).toEqual({
        message: 'emailEnabled must be true or false',
        code: 'INVALID_PREFERENCES',
      })
    }
    expect((await put(['emailEnabled'])).statusCode).toBe(400)
    // Unknown fields are dropped, the known ones saved.
    const saved = await put({ mobileEnabled: true, smsEnabled: true })
    expect(saved.statusCode).toBe(200)
    expect(saved.json()).toEqual(expect.objectContaining({ mobileEnabled: true }))
    expect(saved.json()).not.toHaveProperty('smsEnabled')
  })
})
