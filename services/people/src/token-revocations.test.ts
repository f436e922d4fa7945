import { randomBytes, randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { Topics } from '@marketplace/contracts/events'
import { TOKEN_REVOCATIONS_COLLECTION, callerOf, newEvent } from '@marketplace/service-kit'
import {
  infraEnv,
  signTestToken,
  testKeyPair,
  testMongoUrl,
  waitFor,
} from '@marketplace/service-kit/testing'
import { buildPeopleApp } from './app'
import { readConfig } from './config'

// The people app as server.ts builds it, against the real FerretDB and Kafka: a
// user.tokens-revoked event published on auth.users ends the user's older access tokens.
describe('people service: revoked access tokens', () => {
  const keys = testKeyPair()
  let app: FastifyInstance
  let baseUrl: string

  beforeAll(async () => {
    const infra = infraEnv()
    app = await buildPeopleApp(
      readConfig({
        MONGO_URL: testMongoUrl('people_token_revocations'),
        KAFKA_BROKERS: infra.kafkaBrokers,
        KAFKA_GROUP_PREFIX: `test-people-revocations-${randomBytes(4).toString('hex')}-`,
        JWT_PUBLIC_KEY: keys.publicKey,
        LOG_LEVEL: 'silent',
      }),
    )
    // People has no authenticated route yet: a probe behind the app's own authenticate.
    app.get('/test/me', { preHandler: app.authenticate }, async (request) => callerOf(request))
    // Real HTTP rather than app.inject: this package's jest config does not compile the
    // ESM-only `cookie` that light-my-request loads.
    await app.listen({ host: '127.0.0.1', port: 0 })
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    await app.events.ready
  })

  afterAll(async () => {
    await app.mongo.db.dropDatabase()
    await app.close()
  })

  const tokenFor = (userId: string, iat: number) =>
    signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: 'marketplace-auth',
      aud: 'marketplace',
      iat,
      exp: iat + 900,
    })
  const me = async (token: string) => {
    const response = await fetch(`${baseUrl}/test/me`, {
      headers: { authorization: `Bearer ${token}` },
    })
    return { statusCode: response.status, body: (await response.json()) as { code?: string } }
  }

  it('a token issued before the password change is refused once the event arrives', async () => {
    const userId = randomUUID()
    const now = Math.floor(Date.now() / 1000)
    const before = tokenFor(userId, now - 120)
    expect((await me(before)).statusCode).toBe(200)

    const event = newEvent('user.tokens-revoked', {
      aggregateId: userId,
      actorId: userId,
      data: {
        userId,
        validAfter: new Date((now - 60) * 1000).toISOString(),
        reason: 'password-changed',
      },
    })
    await app.events.producer.send({
      topic: Topics.authUsers,
      messages: [{ key: userId, value: JSON.stringify(event) }],
    })

    const refused = await waitFor(
      async () => {
        const response = await me(before)
        return response.statusCode === 401 && response
      },
      { timeoutMs: 60_000, what: 'the old token to be refused' },
    )
    expect(refused.body.code).toBe('TOKEN_REVOKED')
    // The fresh token the auth service hands out with the change still works.
    expect((await me(tokenFor(userId, now))).statusCode).toBe(200)
    // The cut-off is in the people service's own database, for its other instances.
    expect(
      await app.mongo.db.collection(TOKEN_REVOCATIONS_COLLECTION).countDocuments({ userId }),
    ).toBe(1)
  })
})
