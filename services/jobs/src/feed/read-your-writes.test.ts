import { hostname } from 'node:os'
import { ObjectId } from 'mongodb'
import { TEST_QUERY, waitFor, waitForConsumersCaughtUp } from '@marketplace/service-kit/testing'
import { POSTS_COLLECTION, type PostDocument } from '../posts/post-document'
import { derivedFields } from '../posts/post-input'
import { JOB_REQUESTS_COLLECTION } from '../requests/request-document'
import { announceWorker } from '../test/announce-worker'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// Another instance's write, as this instance sees it before its event arrives: in the
// database, not in this instance's feed. Written straight to the collection (no outbox), the
// event never comes, so what the feed answers is decided by the read's X-Read-After alone.

interface Answer {
  status: number
  headers: Headers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions state the shape
  body: any
}

describe('jobs feed: read-your-writes across instances (X-Read-After)', () => {
  let jobs: JobsTestApp
  let ownerId: string

  async function call(
    method: string,
    path: string,
    options: { userId?: string | null; readAfter?: string; body?: unknown } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {}
    if (options.userId) headers.authorization = `Bearer ${jobs.tokenFor(options.userId)}`
    if (options.readAfter !== undefined) headers['x-read-after'] = options.readAfter
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${jobs.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    })
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : null,
    }
  }

  /** A live post as another instance stored it: in the database only. */
  async function writtenElsewhere(title: string, changes: Partial<PostDocument> = {}) {
    const at = new Date()
    const fields = { title, infos: '', expirationDate: null }
    const post: PostDocument = {
      _id: new ObjectId().toHexString(),
      userID: ownerId,
      location: 'Boston MA',
      jobStartEnd: '',
      salary: '',
      paymentType: ['Cash'],
      contact: '',
      displayLocation: true,
      displayContact: true,
      jobPicture: null,
      isOnline: true,
      takenDown: false,
      createdAt: at,
      updatedAt: at,
      ...fields,
      ...derivedFields(fields),
      ...changes,
    }
    await jobs.db.collection<PostDocument>(POSTS_COLLECTION).insertOne(post)
    return post
  }

  /**
   * Until this instance's feed has read the events of the test's own writes: one read late
   * re-reads from the database and so shows "another instance's" change before the read that
   * names it.
   */
  async function ownEventsRead() {
    await waitFor(
      async () => {
        for (const name of [POSTS_COLLECTION, JOB_REQUESTS_COLLECTION]) {
          const pending = await jobs.db
            .collection(name)
            .countDocuments({ outboxPending: true }, TEST_QUERY)
          if (pending > 0) return false
        }
        return true
      },
      { timeoutMs: 30_000, what: 'the outboxes sent' },
    )
    await waitForConsumersCaughtUp(`jobs-feed.${hostname()}.${process.pid}.`, 30_000)
  }

  const positionOf = (post: Pick<PostDocument, '_id' | 'updatedAt'>) =>
    `post:${post._id}@${post.updatedAt.getTime()}`

  const search = (word: string, readAfter?: string, userId: string | null = null) =>
    call('GET', `/api/jobs?search=${word}&limit=10`, { readAfter, userId })

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_read_your_writes')
    ownerId = jobs.newUserId()
  })
  afterAll(() => jobs.stop())

  it('a write answers with the position it left the post at; a write that hides something, for everyone too', async () => {
    const created = await call('POST', '/api/jobs', {
      userId: ownerId,
      body: { title: 'Position numbat', where: 'Boston MA' },
    })
    expect(created.status).toBe(201)
    const id = created.body._id as string
    const stored = await jobs.db.collection<PostDocument>(POSTS_COLLECTION).findOne({ _id: id })
    expect(created.headers.get('x-read-after')).toBe(positionOf(stored!))
    // A public post takes nothing from anyone: only its writer needs to read after it.
    expect(created.headers.get('x-read-after-everyone')).toBeNull()

    const hidden = await call('PUT', `/api/jobs/${id}`, {
      userId: ownerId,
      body: { displayLocation: false },
    })
    expect(hidden.status).toBe(200)
    const afterHiding = await jobs.db
      .collection<PostDocument>(POSTS_COLLECTION)
      .findOne({ _id: id })
    expect(hidden.headers.get('x-read-after')).toBe(positionOf(afterHiding!))
    expect(hidden.headers.get('x-read-after-everyone')).toBe(positionOf(afterHiding!))

    const deleted = await call('DELETE', `/api/jobs/${id}`, { userId: ownerId })
    expect(deleted.status).toBe(204)
    // The deletion also ends every grant on the post.
    const gone = new RegExp(`^post:${id}@-, grants:${id}@\\d+$`)
    expect(deleted.headers.get('x-read-after')).toMatch(gone)
    expect(deleted.headers.get('x-read-after-everyone')).toMatch(gone)

    // Reads write nothing and name nothing; a refused write names nothing either.
    expect((await search('numbat')).headers.get('x-read-after')).toBeNull()
    const refused = await call('PUT', `/api/jobs/${id}`, {
      userId: ownerId,
      body: { displayLocation: 'maybe' },
    })
    expect(refused.status).not.toBe(200)
    expect(refused.headers.get('x-read-after')).toBeNull()
  })

  it('shows a post another instance just created, in search and on page 1, to a read naming it; not to one that does not', async () => {
    const post = await writtenElsewhere('Elsewhere quokka')
    const plain = await search('quokka')
    expect(plain.body.jobs).toHaveLength(0)
    expect(plain.headers.get('x-read-after-refreshed')).toBeNull()

    const named = await search('quokka', positionOf(post))
    expect(named.body.jobs.map((job: PostDocument) => job._id)).toEqual([post._id])
    expect(named.headers.get('x-read-after-refreshed')).toBe('1')
    // Read once from the database: from then on this instance holds it, for every reader.
    expect((await search('quokka')).body.jobs).toHaveLength(1)
    const again = await call('GET', '/api/jobs?page=1', { readAfter: positionOf(post) })
    expect(again.headers.get('x-read-after-refreshed')).toBe('0')
    expect(again.body.jobs[0]._id).toBe(post._id)
  })

  it("hides what another instance's write just hid from a guest whose read names it, and drops a deleted post", async () => {
    const post = await writtenElsewhere('Elsewhere bilby')
    await search('bilby', positionOf(post))
    expect((await search('bilby')).body.jobs[0].location).toBe('Boston MA')

    // The other instance hides the location: a newer version in the database only.
    const updatedAt = new Date(post.updatedAt.getTime() + 1000)
    await jobs.db
      .collection<PostDocument>(POSTS_COLLECTION)
      .updateOne({ _id: post._id }, { $set: { displayLocation: false, updatedAt } })
    expect((await search('bilby')).body.jobs[0].location).toBe('Boston MA')
    const named = await search('bilby', positionOf({ _id: post._id, updatedAt }))
    expect(named.body.jobs).toHaveLength(1)
    expect(named.body.jobs[0].location).not.toBe('Boston MA')
    expect(named.headers.get('x-read-after-refreshed')).toBe('1')

    await jobs.db.collection<PostDocument>(POSTS_COLLECTION).deleteOne({ _id: post._id })
    expect((await search('bilby')).body.jobs).toHaveLength(1)
    expect((await search('bilby', `post:${post._id}@-`)).body.jobs).toHaveLength(0)
  })

  it("shows a requester what another instance's decision just allowed them to see, to a read naming the grant", async () => {
    const place = 'Hidden Lane 9'
    const [first, second] = [await announceWorker(jobs, 'Gina'), await announceWorker(jobs, 'Hal')]
    const created = await call('POST', '/api/jobs', {
      userId: ownerId,
      body: { title: 'Grant echidna', where: place, displayLocation: false },
    })
    const postId = created.body._id as string
    const sent = await call('POST', '/api/jobs/requests', {
      userId: first,
      body: { postID: postId },
    })
    expect(sent.status).toBe(201)
    expect((await search('echidna', undefined, first)).body.jobs[0].location).not.toBe(place)
    await ownEventsRead()

    // Another instance accepts: the request is accepted in the database only.
    await jobs.db
      .collection<{ _id: string; status: string }>(JOB_REQUESTS_COLLECTION)
      .updateOne({ _id: sent.body._id }, { $set: { status: 'accepted' } })
    expect((await search('echidna', undefined, first)).body.jobs[0].location).not.toBe(place)
    const named = await search('echidna', `grants:${postId}@${Date.now()}`, first)
    expect(named.body.jobs[0].location).toBe(place)
    expect(named.headers.get('x-read-after-refreshed')).toBe('1')

    // A decision answered here names the grant, for everyone (the requester did not write it).
    const other = await call('POST', '/api/jobs/requests', {
      userId: second,
      body: { postID: postId },
    })
    const decided = await call('PATCH', `/api/jobs/requests/${other.body._id}`, {
      userId: ownerId,
      body: { status: 'accepted' },
    })
    expect(decided.status).toBe(200)
    expect(decided.headers.get('x-read-after-everyone')).toMatch(
      new RegExp(`^grants:${postId}@\\d+$`),
    )
  }, 150_000)

  it('ignores what does not read as a position, and positions of other kinds', async () => {
    const post = await writtenElsewhere('Elsewhere wallaby')
    const noise = `user:${post._id}@1, post:${post._id}, $ne, post:{"$gt":1}@1, ${'x'.repeat(300)}`
    const answer = await search('wallaby', noise)
    expect(answer.status).toBe(200)
    expect(answer.body.jobs).toHaveLength(0)
    expect(answer.headers.get('x-read-after-refreshed')).toBe('0')
  })

  it('pages by cursor without overlap or gap while posts are added between pages; page answers stay as the spec has them', async () => {
    const word = `cursor${Date.now().toString(36)}`
    const owner = jobs.newUserId()
    const create = (n: number) =>
      call('POST', '/api/jobs', {
        userId: owner,
        body: { title: `${word} ${n}`, where: 'Boston MA' },
      })
    for (let n = 0; n < 7; n += 1) expect((await create(n)).status).toBe(201)
    const mine = async () =>
      (await call('GET', `/api/jobs/my-jobs`, { userId: owner })).body as PostDocument[]

    const seen: string[] = []
    let answer = await call('GET', `/api/jobs?limit=3&after=`, { userId: owner })
    const spec = await call('GET', `/api/jobs?limit=3&page=1`)
    expect(Object.keys(spec.body.pagination).sort()).toEqual([
      'limit',
      'page',
      'total',
      'totalPages',
    ])
    for (let round = 0; round < 20; round += 1) {
      seen.push(...answer.body.jobs.map((job: PostDocument) => job._id))
      // Someone posts between two pages: offset pages would shift by one and repeat a post.
      await create(100 + round)
      const next = answer.body.pagination.nextCursor as string | undefined
      if (!next) break
      answer = await call('GET', `/api/jobs?limit=3&after=${encodeURIComponent(next)}`)
      expect(answer.status).toBe(200)
    }
    expect(new Set(seen).size).toBe(seen.length)
    // Every post that existed when page 1 was read appears exactly once, in feed order.
    const firstSeven = (await mine())
      .filter((post) => /^cursor\w+ [0-6]$/.test(post.title))
      .map((post) => post._id)
    expect(seen.filter((id) => firstSeven.includes(id))).toEqual(firstSeven)

    const bad = await call('GET', '/api/jobs?after=not-a-cursor')
    expect(bad.status).toBe(400)
  })
})
