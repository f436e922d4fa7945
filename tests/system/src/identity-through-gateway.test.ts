import { randomBytes } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { infraEnv, testKeyPair, testMongoUrl } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, mailedCode, startService, type RunningService } from './processes'

// Sign-up to logout as a browser does it, through the gateway, every part a real process:
// the gateway's X-Forwarded-* headers must carry the browser's origin to auth's same-origin
// check, and its address to auth's rate limits.
describe('identity through the gateway', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const authDbUrl = testMongoUrl('system_identity')
  const services: RunningService[] = []
  let site: string

  beforeAll(async () => {
    const [authPort, gatewayPort] = [await freePort(), await freePort()]
    const auth = await startService('auth-identity', 'services/auth', {
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_GROUP_PREFIX: `system-identity-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '100',
      ...authOnlyEnv(keys),
      PORT: String(authPort),
      MONGO_URL: authDbUrl,
    })
    const gateway = await startService('gateway-identity', 'services/gateway', {
      PORT: String(gatewayPort),
      AUTH_URL: auth.url,
    })
    services.push(gateway, auth)
    site = gateway.url
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    const mongo = await new MongoClient(authDbUrl).connect()
    await mongo.db().dropDatabase()
    await mongo.close()
  })

  /** A tiny cookie jar, as the browser keeps one for the site. */
  const jar = new Map<string, string>()
  function remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';')
      const [name, value] = pair!.split('=')
      if (/Expires=Thu, 01 Jan 1970/.test(header)) jar.delete(name!)
      else jar.set(name!, value!)
    }
  }
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')

  async function call(
    method: string,
    path: string,
    body?: object,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${site}${path}`, {
      method,
      headers: {
        origin: site,
        cookie: cookieHeader(),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    remember(response)
    return response
  }

  it('signs up, verifies with the mailed code, logs in, renews and logs out', async () => {
    const email = `gateway-${randomBytes(5).toString('hex')}@example.test`
    const password = 'Gateway2026!'
    const signup = await call('POST', '/api/auth/signup', {
      firstname: 'Grace',
      lastname: 'Hopper',
      email,
      phoneNumber: '2125550100',
      password,
      dateOfBirth: '1980-12-09',
      interest: 'Posts',
      emailPreferences: true,
      termsAgreed: true,
    })
    expect(signup.status).toBe(201)

    const code = await mailedCode(email)
    expect((await call('POST', '/api/auth/confirm-signup', { email, code })).status).toBe(200)

    const login = await call('POST', '/api/auth/direct-login', { email, password, persist: true })
    expect(login.status).toBe(200)
    const { user, accessToken } = (await login.json()) as {
      user: { email: string }
      accessToken: string
    }
    expect(user.email).toBe(email)
    expect(accessToken.split('.')).toHaveLength(3)
    expect([...jar.keys()].sort()).toEqual(['XSRF-TOKEN', 'refresh_token'])

    // Renewal needs the page's own origin (seen through the gateway) and the XSRF header.
    const xsrf = { 'x-xsrf-token': jar.get('XSRF-TOKEN')! }
    expect(
      (
        await call('POST', '/api/auth/refresh', undefined, {
          ...xsrf,
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403)
    const renewed = await call('POST', '/api/auth/refresh', undefined, xsrf)
    expect(renewed.status).toBe(200)
    expect(await renewed.json()).toMatchObject({ roles: ['2000'], user: { email } })

    const logout = await call('GET', '/logout')
    expect(logout.status).toBe(204)
    expect(jar.size).toBe(0)
    expect((await call('POST', '/api/auth/refresh', undefined, xsrf)).status).toBe(401)
  })
})
