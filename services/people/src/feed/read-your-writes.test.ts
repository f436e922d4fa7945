import { hostname } from 'node:os'
import { TEST_QUERY, waitFor, waitForConsumersCaughtUp } from '@marketplace/service-kit/testing'
import { PROFILES_COLLECTION, type ProfileDocument } from '../profiles/profile-document'
import { startPeopleTestApp, workerProfileBody, type PeopleTestApp } from '../test/people-test-app'

// Another instance's write, as this instance sees it before its event arrives: in the
// database, not in this instance's feed. Changed straight in the collection (no outbox), the
// event never comes, so what the feed answers is decided by the read's X-Read-After alone.

describe('people feed: read-your-writes across instances (X-Read-After)', () => {
  let people: PeopleTestApp

  async function call(
    method: string,
    path: string,
    options: { userId?: string; readAfter?: string; body?: unknown } = {},
  ) {
    const headers: Record<string, string> = {}
    if (options.userId) headers.authorization = `Bearer ${people.tokenFor(options.userId)}`
    if (options.readAfter !== undefined) headers['x-read-after'] = options.readAfter
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${people.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    })
    const text = await response.text()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions state the shape
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as any }
  }

  const profiles = () => people.db.collection<ProfileDocument>(PROFILES_COLLECTION)
  /**
   * Until this instance's feed has read the events of the test's own writes: one read late
   * re-reads the profile from the database and so shows "another instance's" change before
   * the read that names it (a busy CI machine did that).
   */
  async function ownEventsRead() {
    await waitFor(
      async () => (await profiles().countDocuments({ outboxPending: true }, TEST_QUERY)) === 0,
      { timeoutMs: 30_000, what: 'the outbox sent' },
    )
    await waitForConsumersCaughtUp(`people-feed.${hostname()}.${process.pid}.`, 30_000)
  }

  const positionOf = (profile: ProfileDocument) =>
    `user:${profile._id}@${profile.updatedAt!.getTime()}`

  beforeAll(async () => {
    people = await startPeopleTestApp('people_read_your_writes')
  })
  afterAll(() => people?.stop())

  it('a worker profile write answers with its position; hidden contacts make it one for everyone', async () => {
    const userId = await people.registerUser('Pia', 'Public')
    const open = await call('PUT', `/api/users/${userId}/worker-profile`, {
      userId,
      body: workerProfileBody({ contacts: [{ value: 'pia@example.com', visibility: 'public' }] }),
    })
    expect(open.status).toBe(200)
    const saved = await profiles().findOne({ _id: userId })
    expect(open.headers.get('x-read-after')).toBe(positionOf(saved!))
    expect(open.headers.get('x-read-after-everyone')).toBeNull()

    const hidden = await call('PUT', `/api/users/${userId}/worker-profile`, {
      userId,
      body: workerProfileBody({ contacts: [{ value: 'pia@example.com', visibility: 'hidden' }] }),
    })
    const again = await profiles().findOne({ _id: userId })
    expect(hidden.headers.get('x-read-after')).toBe(positionOf(again!))
    expect(hidden.headers.get('x-read-after-everyone')).toBe(positionOf(again!))
  })

  it("shows another instance's change of a worker to a read naming it, in search and the feed; not to one that does not", async () => {
    const userId = await people.registerUser('Rex', 'Remote')
    const saved = await call('PUT', `/api/users/${userId}/worker-profile`, {
      userId,
      body: workerProfileBody({ title: 'Piano tuner' }),
    })
    expect(saved.status).toBe(200)
    expect((await call('GET', '/api/people?search=piano')).body.people).toHaveLength(1)
    await ownEventsRead()

    // The other instance renames the worker's title: a newer version in the database only.
    const before = (await profiles().findOne({ _id: userId }))!
    const updatedAt = new Date(before.updatedAt!.getTime() + 1000)
    await profiles().updateOne(
      { _id: userId },
      { $set: { 'worker.title': 'Harpsichord tuner', updatedAt } },
    )
    const position = positionOf({ ...before, updatedAt })
    expect((await call('GET', '/api/people?search=harpsichord')).body.people).toHaveLength(0)

    const named = await call('GET', '/api/people?search=harpsichord', { readAfter: position })
    expect(named.body.people.map((person: { _id: string }) => person._id)).toEqual([userId])
    expect(named.headers.get('x-read-after-refreshed')).toBe('1')
    const page = await call('GET', '/api/people?page=1', { readAfter: position })
    expect(page.headers.get('x-read-after-refreshed')).toBe('0')
    expect(page.body.people.find((person: { _id: string }) => person._id === userId).title).toBe(
      'Harpsichord tuner',
    )
  })

  it('pages by cursor (after=) without overlap, and keeps the spec answer without it', async () => {
    for (const name of ['Ana', 'Ben', 'Cy']) {
      const userId = await people.registerUser(name, 'Cursor')
      await call('PUT', `/api/users/${userId}/worker-profile`, {
        userId,
        body: workerProfileBody(),
      })
    }
    const spec = await call('GET', '/api/people?limit=2')
    expect(spec.body.pagination.nextCursor).toBeUndefined()
    const seen: string[] = []
    let answer = await call('GET', '/api/people?limit=2&after=')
    for (let round = 0; round < 10; round += 1) {
      seen.push(...answer.body.people.map((person: { _id: string }) => person._id))
      const next = answer.body.pagination.nextCursor as string | undefined
      if (!next) break
      answer = await call('GET', `/api/people?limit=2&after=${encodeURIComponent(next)}`)
    }
    expect(seen).toHaveLength(spec.body.pagination.total)
    expect(new Set(seen).size).toBe(seen.length)
  })
})
