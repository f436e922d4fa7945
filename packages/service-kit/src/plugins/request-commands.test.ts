import { createServiceApp } from '../create-app'
import { testMongoUrl } from '../testing/infra-env'
import { COMMANDS_HEADER, countCommandsOf, mongoPlugin, outsideRequestCount } from './mongodb'

// Each request's own count of the database commands it sent (what the read routes' budgets
// assert), against the real local server: exact per route, never mixed between requests
// served at the same time, also for a request with a body, and in /metrics per route.

describe('database commands counted per request', () => {
  let app: Awaited<ReturnType<typeof createServiceApp>>

  beforeAll(async () => {
    app = await createServiceApp({ serviceName: 'commands-test', logLevel: 'silent' })
    await app.register(mongoPlugin, {
      url: testMongoUrl('service_kit_request_commands'),
      indexes: [],
      commandsHeader: true,
    })
    const things = () => app.mongo.db.collection<{ _id: string; n: number }>('things')
    app.get('/three', async () => {
      for (const _id of ['a', 'b', 'c']) await things().findOne({ _id })
      // A pause, so requests served at once overlap.
      await new Promise((resolve) => setTimeout(resolve, 20))
      return { ok: true }
    })
    app.post('/two', async (request) => {
      const { n } = request.body as { n: number }
      await things().updateOne({ _id: `n${n}` }, { $set: { n } }, { upsert: true })
      await new Promise((resolve) => setTimeout(resolve, 20))
      await things().findOne({ _id: `n${n}` })
      return { ok: true }
    })
    app.get('/none', async () => ({ ok: true }))
    app.get('/one-and-a-session-check', async () => {
      await outsideRequestCount(() => things().findOne({ _id: 'session' }))
      await things().findOne({ _id: 'a' })
      return { ok: true }
    })
    await app.ready()
  })

  afterAll(async () => {
    await app.mongo.db.dropDatabase()
    await app.close()
  })

  const commandsOf = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const answer = await app.inject({ method, url, ...(payload ? { payload } : {}) })
    expect(answer.statusCode).toBe(200)
    return Number(answer.headers[COMMANDS_HEADER])
  }

  it('counts what each route sends, and nothing for a route that sends nothing', async () => {
    expect(await commandsOf('GET', '/three')).toBe(3)
    expect(await commandsOf('POST', '/two', { n: 1 })).toBe(2)
    expect(await commandsOf('GET', '/none')).toBe(0)
  })

  it("leaves out what every route does alike (the session check's read)", async () => {
    expect(await commandsOf('GET', '/one-and-a-session-check')).toBe(1)
  })

  it('keeps the counts of requests served at the same time apart', async () => {
    const counts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0 ? commandsOf('GET', '/three') : commandsOf('POST', '/two', { n: i }),
      ),
    )
    expect(counts).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 3 : 2)))
  })

  it('counts work outside a request with countCommandsOf', async () => {
    const { result, commands } = await countCommandsOf(async () => {
      await app.mongo.db.collection('things').findOne({ _id: 'a' as never })
      return 'done'
    })
    expect(result).toBe('done')
    expect(commands).toBe(1)
  })

  it('reports the distribution per route in /metrics', async () => {
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    // Seven requests of each route above: 7 x 3 and 7 x 2 commands.
    expect(metrics).toMatch(
      /http_request_mongodb_commands_sum\{[^}]*method="GET",route="\/three"\} 21\n/,
    )
    expect(metrics).toMatch(
      /http_request_mongodb_commands_sum\{[^}]*method="POST",route="\/two"\} 14\n/,
    )
  })
})
