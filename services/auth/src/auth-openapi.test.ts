import type { FastifyInstance } from 'fastify'
import { toLoginAnswer } from './sessions/session-views'
import type { IssuedSession } from './sessions/sessions-service'
import { cookiesOf, startAuthTestApp, uniqueIp } from './test/auth-test-app'
import { PASSWORD, verifiedAccount } from './test/accounts'

// The views below leak on purpose, as a view that returned the whole session would: the
// refresh and XSRF tokens (cookie-only secrets) and a password hash. The response schemas
// are the last guard: the serializer must drop every field they do not list.
jest.mock('./sessions/session-views', () => {
  const actual = jest.requireActual<typeof import('./sessions/session-views')>(
    './sessions/session-views',
  )
  const leaky = (session: IssuedSession) => ({
    ...session,
    roles: session.user.roles,
    user: { ...session.user, passwordHash: '$argon2id$leaked' },
  })
  return {
    ...actual,
    toLoginAnswer: leaky,
    toRenewalAnswer: leaky,
    toChangePasswordAnswer: (session: IssuedSession & { message: string }) => leaky(session),
  }
})

const ORIGIN = 'http://localhost:80'
const USER_FIELDS = ['_id', 'email', 'firstName', 'isWorker', 'lastName', 'phoneNumber', 'roles']

let app: FastifyInstance

beforeAll(async () => {
  ;({ app } = await startAuthTestApp('auth_openapi'))
  await app.events.ready
})
afterAll(async () => {
  await app?.close()
})

interface Operation {
  tags?: string[]
  summary?: string
  security?: Array<Record<string, string[]>>
  requestBody?: unknown
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}

async function openApiDocument() {
  const response = await app.inject({ method: 'GET', url: '/openapi.json' })
  expect(response.statusCode).toBe(200)
  return response.json() as { paths: Record<string, Record<string, Operation>> }
}

type Security = 'none' | 'bearer' | 'cookie'
// Every public route of the auth service: method, path, success status, security, and the
// error statuses it can answer.
// The sixth element: other success answers (direct-login's 202 two-step challenge).
const ROUTES: Array<[string, string, number, Security, number[], number[]?]> = [
  ['post', '/api/auth/signup', 201, 'none', [400, 409, 429]],
  ['post', '/api/auth/confirm-signup', 200, 'none', [400, 429]],
  ['post', '/api/auth/resend-confirmation', 200, 'none', [400, 429, 503]],
  ['post', '/api/auth/direct-login', 200, 'none', [400, 401, 403, 404, 429, 503], [202]],
  ['post', '/api/auth/keep-account', 200, 'none', [400, 401, 403, 404, 409, 429, 503], [202]],
  ['post', '/api/auth/refresh', 200, 'cookie', [401, 403]],
  ['get', '/logout', 204, 'cookie', []],
  ['post', '/api/auth/forgot-password', 200, 'none', [400, 429]],
  ['post', '/api/auth/confirm-password-reset', 200, 'none', [400, 429]],
  ['post', '/api/auth/change-password', 200, 'bearer', [400, 401, 429]],
  ['get', '/api/auth/two-step', 200, 'bearer', [401]],
  ['put', '/api/auth/two-step/email', 200, 'bearer', [400, 401, 429]],
  ['post', '/api/auth/two-step/authenticator/setup', 200, 'bearer', [400, 401, 409, 429]],
  ['post', '/api/auth/two-step/authenticator/confirm', 200, 'bearer', [400, 401, 429]],
  ['post', '/api/auth/two-step/authenticator/disable', 200, 'bearer', [400, 401, 429]],
  ['post', '/api/auth/two-step/email-code', 200, 'none', [400, 429, 503]],
  ['post', '/api/auth/two-step/verify', 200, 'none', [400, 403, 429]],
]

describe('the OpenAPI document at /openapi.json', () => {
  it('lists exactly the public routes of the auth service', async () => {
    const { paths } = await openApiDocument()
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    )
    expect(documented.sort()).toEqual(ROUTES.map(([method, path]) => `${method} ${path}`).sort())
  })

  it.each(ROUTES)(
    'documents %s %s with its success answer, its errors and its security',
    async (method, path, success, security, errors, otherSuccesses = []) => {
      const operation = (await openApiDocument()).paths[path]![method]!
      expect(operation.tags).toEqual(['auth'])
      expect(operation.summary).toEqual(expect.any(String))
      expect(Object.keys(operation.responses).map(Number).sort()).toEqual(
        [success, ...otherSuccesses, ...errors].sort(),
      )
      if (success !== 204) {
        expect(operation.responses[success]!.content!['application/json']!.schema).toBeDefined()
      }
      for (const status of errors) {
        expect(operation.responses[status]!.content!['application/json']!.schema).toMatchObject({
          properties: { message: { type: 'string' }, code: { type: 'string' } },
        })
      }
      const expected = {
        none: undefined,
        bearer: [{ bearerAuth: [] }],
        cookie: [{ refreshCookie: [], csrfHeader: [] }],
      }[security]
      expect(operation.security).toEqual(expected)
    },
  )

  it('describes the login body field by field, without constraining their types', async () => {
    const operation = (await openApiDocument()).paths['/api/auth/direct-login']!.post!
    const schema = JSON.stringify(operation.requestBody)
    for (const field of ['email', 'password', 'persist']) expect(schema).toContain(`"${field}"`)
    // A mistyped field must still get the product's sentence, not a validator's.
    expect(schema).not.toMatch(/"minLength"|"pattern"/)
  })
})

describe('the response schemas keep private fields out', () => {
  async function logIn(persist = false) {
    const { email } = await verifiedAccount(app, 'openapi')
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/direct-login',
      payload: { email, password: PASSWORD, persist },
      headers: { 'x-forwarded-for': uniqueIp(), origin: ORIGIN },
    })
    expect(response.statusCode).toBe(200)
    return { response, cookies: cookiesOf(response) }
  }

  function expectNoSecrets(body: Record<string, unknown>, cookies: Record<string, string>) {
    const text = JSON.stringify(body)
    expect(text).not.toContain('argon2id')
    expect(text).not.toContain(cookies.refresh_token!)
    expect(text).not.toContain(cookies['XSRF-TOKEN']!)
    expect(Object.keys(body.user as object).sort()).toEqual(USER_FIELDS)
  }

  it('holds views that leak, so the checks below prove the schemas drop what they add', () => {
    const session = {
      refreshToken: 'family.secret',
      accessToken: 'token',
      user: { _id: 'u1', roles: ['2000'] },
    } as unknown as IssuedSession
    expect(toLoginAnswer(session)).toMatchObject({
      refreshToken: 'family.secret',
      user: { passwordHash: expect.any(String) },
    })
  })

  it('a login answer is only the user and the access token, even if the view adds more', async () => {
    const { response, cookies } = await logIn()
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'user'])
    expectNoSecrets(body, cookies)
  })

  it('a renewal answer is only the access token, the user and the roles', async () => {
    const { cookies } = await logIn()
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies,
      headers: { origin: ORIGIN, 'x-xsrf-token': cookies['XSRF-TOKEN']! },
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'roles', 'user'])
    expectNoSecrets(body, { ...cookies, ...cookiesOf(response) })
  })

  it('a password change answer is only the message, the access token, the user and the roles', async () => {
    const { response: login, cookies } = await logIn(true)
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { oldPassword: PASSWORD, newPassword: 'Engine1842$' },
      cookies,
      headers: {
        'x-forwarded-for': uniqueIp(),
        authorization: `Bearer ${login.json().accessToken}`,
      },
    })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'message', 'roles', 'user'])
    expectNoSecrets(body, cookiesOf(response))
  })
})
