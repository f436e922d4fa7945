import { randomBytes } from 'node:crypto'
import { startMediaTestApp } from '../test/media-test-app'
import { UPLOAD_QUOTAS_COLLECTION } from './upload-documents'

// The daily upload quota, through the app as server.ts builds it, on the real FerretDB.
describe('the daily upload quota', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>
  const perDay = 3

  beforeAll(async () => {
    media = await startMediaTestApp('quota', { UPLOADS_PER_DAY: String(perDay) })
  })

  afterAll(async () => {
    await media?.close()
  })

  const newUser = () => randomBytes(12).toString('hex')
  const png = { fileName: 'cat.png', fileType: 'image/png', fileSize: 1234 }
  const ask = (userId: string, url = '/api/upload', body: object = png) =>
    media.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: body,
    })

  it('answers 429 with Retry-After until the next UTC midnight and a clear message past the limit', async () => {
    const userId = newUser()
    for (let index = 0; index < perDay; index += 1) {
      expect((await ask(userId)).statusCode).toBe(200)
    }
    const before = Date.now()
    const refused = await ask(userId)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      message: "You have reached today's limit of 3 picture uploads. Please try again tomorrow.",
      code: 'UPLOAD_QUOTA_EXCEEDED',
    })
    const now = new Date(before)
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(0)
    expect(Math.abs(retryAfter - (midnight - before) / 1000)).toBeLessThan(5)
    // Still refused: asking again does not reopen anything.
    expect((await ask(userId)).statusCode).toBe(429)
  })

  it('counts both kinds of picture together, and nobody else is affected', async () => {
    const userId = newUser()
    expect((await ask(userId)).statusCode).toBe(200)
    expect((await ask(userId, '/api/upload/user-profile-picture')).statusCode).toBe(200)
    expect((await ask(userId)).statusCode).toBe(200)
    expect((await ask(userId, '/api/upload/user-profile-picture')).statusCode).toBe(429)
    expect((await ask(newUser())).statusCode).toBe(200)
  })

  it('a request the rules refuse costs nothing', async () => {
    const userId = newUser()
    for (let index = 0; index < perDay + 2; index += 1) {
      expect((await ask(userId, '/api/upload', { ...png, fileType: 'text/html' })).statusCode).toBe(
        400,
      )
    }
    for (let index = 0; index < perDay; index += 1) {
      expect((await ask(userId)).statusCode).toBe(200)
    }
  })

  it('keeps one counter per user and UTC day, addressed by _id, and asks for no other key', async () => {
    const userId = newUser()
    const filters: Array<Record<string, unknown>> = []
    const listener = (event: { command: Record<string, unknown> }) => {
      const { command } = event
      if (command.findAndModify === UPLOAD_QUOTAS_COLLECTION) {
        filters.push(command.query as Record<string, unknown>)
      }
    }
    media.app.mongo.client.on('commandStarted', listener)
    try {
      expect((await ask(userId)).statusCode).toBe(200)
    } finally {
      media.app.mongo.client.off('commandStarted', listener)
    }
    const day = new Date().toISOString().slice(0, 10)
    expect(filters).toEqual([{ _id: `${userId}:${day}` }])
    const counter = await media.app.mongo.db
      .collection(UPLOAD_QUOTAS_COLLECTION)
      .findOne({ _id: `${userId}:${day}` as never })
    expect(counter).toMatchObject({ count: 1 })
  })

  it('several requests at once are counted exactly: never more slots than the limit', async () => {
    const userId = newUser()
    const answers = await Promise.all(Array.from({ length: perDay + 3 }, () => ask(userId)))
    const statuses = answers.map((answer) => answer.statusCode).sort()
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429])
  })
})
