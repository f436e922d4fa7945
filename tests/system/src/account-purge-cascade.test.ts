import { randomBytes } from 'node:crypto'
import { MongoClient, type Db } from 'mongodb'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'
import { infraEnv, testKeyPair, testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, mailedCode, startService, type RunningService } from './processes'

// Account deletion end to end, every part a real process behind the gateway: the user asks
// to delete the account, the grace period (seconds here, 30 days in production) runs out,
// people emits user.deleted, and every service removes what it holds. Then every collection
// of every service's database is read, and none may mention the user; and the user's
// picture is gone from the bucket.
describe('account deletion cascade', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const databases = {
    auth: testMongoUrl('system_purge_auth'),
    people: testMongoUrl('system_purge_people'),
    jobs: testMongoUrl('system_purge_jobs'),
  }
  const services: RunningService[] = []
  let site: string
  const bucket = `purge-${randomBytes(4).toString('hex')}`

  beforeAll(async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()])
    const [authPort, peoplePort, jobsPort, mediaPort, gatewayPort] = ports
    const common = {
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_GROUP_PREFIX: `system-purge-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
      OUTBOX_POLL_MS: '500',
    }
    const started = async (service: Promise<RunningService>) => {
      services.unshift(await service)
      return services[0]!
    }
    const auth = await started(
      startService('auth-purge', 'services/auth', {
        ...common,
        ...authOnlyEnv(keys),
        PORT: String(authPort),
        MONGO_URL: databases.auth,
      }),
    )
    const people = await started(
      startService('people-purge', 'services/people', {
        ...common,
        PORT: String(peoplePort),
        MONGO_URL: databases.people,
        DELETION_GRACE_MS: '5000',
        PURGE_INTERVAL_MS: '500',
      }),
    )
    const jobs = await started(
      startService('jobs-purge', 'services/jobs', {
        ...common,
        PORT: String(jobsPort),
        MONGO_URL: databases.jobs,
      }),
    )
    const media = await started(
      startService('media-purge', 'services/media', {
        ...common,
        PORT: String(mediaPort),
        S3_ENDPOINT: infra.s3Endpoint,
        S3_PUBLIC_URL: infra.s3Endpoint,
        S3_REGION: infra.s3Region,
        S3_ACCESS_KEY: infra.s3AccessKey,
        S3_SECRET_KEY: infra.s3SecretKey,
        S3_BUCKET: bucket,
      }),
    )
    const gateway = await started(
      startService('gateway-purge', 'services/gateway', {
        PORT: String(gatewayPort),
        AUTH_URL: auth.url,
        PEOPLE_URL: people.url,
        JOBS_URL: jobs.url,
        MEDIA_URL: media.url,
      }),
    )
    site = gateway.url
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    for (const url of Object.values(databases)) {
      const mongo = await new MongoClient(url).connect()
      await mongo.db().dropDatabase()
      await mongo.close()
    }
  })

  async function call(method: string, path: string, token?: string, body?: object) {
    const response = await fetch(`${site}${path}`, {
      method,
      headers: {
        origin: site,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads its fields
    return { status: response.status, body: (text ? JSON.parse(text) : null) as any }
  }

  /** Signs up, verifies with the mailed code and logs in; answers the id, e-mail and token. */
  async function member(firstname: string, lastname: string) {
    const email = `${firstname}-${randomBytes(5).toString('hex')}@example.test`.toLowerCase()
    const password = 'Cascade2026!'
    const signup = await call('POST', '/api/auth/signup', undefined, {
      firstname,
      lastname,
      email,
      phoneNumber: '2125550100',
      password,
      dateOfBirth: '1985-03-01',
      interest: 'Both',
      emailPreferences: false,
      termsAgreed: true,
    })
    expect(signup.status).toBe(201)
    const code = await mailedCode(email)
    expect(
      (await call('POST', '/api/auth/confirm-signup', undefined, { email, code })).status,
    ).toBe(200)
    const login = await call('POST', '/api/auth/direct-login', undefined, { email, password })
    expect(login.status).toBe(200)
    const userId = login.body.user._id as string
    const token = login.body.accessToken as string
    await waitFor(async () => (await call('GET', `/api/users/${userId}`, token)).status === 200, {
      timeoutMs: 60_000,
      what: `${firstname}'s profile in people`,
    })
    return { userId, email, password, token }
  }

  const workerProfile = {
    title: 'Mover',
    skills: ['Lifting'],
    availability: 'Weekends',
    paymentType: 'Cash',
    location: 'Denver CO',
    contacts: [{ value: '303 555 0100', visibility: 'hidden' }],
  }

  /** Documents of every collection of every service's database that mention `needle`. */
  async function mentions(needle: string) {
    const found: string[] = []
    for (const [service, url] of Object.entries(databases)) {
      const mongo = await new MongoClient(url).connect()
      try {
        const db: Db = mongo.db()
        for (const { name } of await db.listCollections().toArray()) {
          for (const doc of await db.collection(name).find({}).toArray()) {
            if (JSON.stringify(doc).includes(needle)) found.push(`${service}.${name} ${doc._id}`)
          }
        }
      } finally {
        await mongo.close()
      }
    }
    return found
  }

  it('leaves no document of a purged user in any service, and keeps everyone else', async () => {
    const leaver = await member('Lea', 'Leaver')
    const worker = await member('Will', 'Worker')
    for (const person of [leaver, worker]) {
      const saved = await call(
        'PUT',
        `/api/users/${person.userId}/worker-profile`,
        person.token,
        workerProfile,
      )
      expect(saved.status).toBe(200)
    }
    // The leaver's profile picture, uploaded as the web app does it.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    )
    const slot = await call('POST', '/api/upload/user-profile-picture', leaver.token, {
      fileName: 'me.png',
      fileType: 'image/png',
      fileSize: png.length,
    })
    expect(slot.status).toBe(200)
    const upload = await fetch(slot.body.presignedUrl as string, {
      method: 'PUT',
      // The signature covers these three, as the web app sends them (docs/media.md).
      headers: {
        'content-type': 'image/png',
        'content-length': String(png.length),
        'cache-control': UPLOAD_CACHE_CONTROL,
      },
      body: png,
    })
    expect(upload.ok).toBe(true)
    const pictureUrl = `${infra.s3Endpoint}/${bucket}/${slot.body.objectKey as string}`
    expect((await fetch(pictureUrl)).status).toBe(200)

    // The leaver posts; the worker requests it and is accepted; the leaver asks the worker
    // for it too; and the leaver requests the worker's own post.
    const leaversPost = await call('POST', '/api/jobs', leaver.token, {
      title: 'Move boxes',
      where: 'Denver CO',
    })
    expect(leaversPost.status).toBe(201)
    const workersPost = await call('POST', '/api/jobs', worker.token, {
      title: 'Clean a garage',
      where: 'Denver CO',
    })
    await waitFor(
      async () =>
        (await call('POST', '/api/jobs/requests', worker.token, { postID: leaversPost.body._id }))
          .status === 201,
      { timeoutMs: 60_000, what: "the worker's profile known to jobs" },
    )
    const received = await call(
      'GET',
      `/api/jobs/user/${leaver.userId}/received-requests`,
      leaver.token,
    )
    await call('PATCH', `/api/jobs/requests/${received.body[0]._id}`, leaver.token, {
      status: 'accepted',
    })
    await waitFor(
      async () =>
        (
          await call('POST', '/api/jobs/requests', leaver.token, {
            postID: workersPost.body._id,
          })
        ).status === 201,
      { timeoutMs: 60_000, what: "the leaver's profile known to jobs" },
    )
    await waitFor(
      async () =>
        (
          await call('POST', '/api/people/requests', leaver.token, {
            postID: leaversPost.body._id,
            requestedID: worker.userId,
          })
        ).status === 201,
      { timeoutMs: 60_000, what: "the leaver's post known to people" },
    )
    // Before: every service's database holds something of the leaver.
    const before = await mentions(leaver.userId)
    expect(new Set(before.map((place) => place.split('.')[0]))).toEqual(
      new Set(['auth', 'people', 'jobs']),
    )

    const asked = await call('DELETE', `/api/users/${leaver.userId}`, leaver.token)
    expect(asked.status).toBe(200)
    await waitFor(
      async () =>
        (
          await call('POST', '/api/auth/direct-login', undefined, {
            email: leaver.email,
            password: leaver.password,
          })
        ).status === 403,
      { timeoutMs: 60_000, what: 'login refused during the grace period' },
    )

    // After the grace period every service has removed the leaver.
    const left = await waitFor(
      async () => {
        const found = [...(await mentions(leaver.userId)), ...(await mentions(leaver.email))]
        return found.length === 0 ? found : undefined
      },
      { timeoutMs: 120_000, intervalMs: 1000, what: 'no document of the purged user' },
    ).catch(async (error: unknown) => {
      throw new Error(
        `${String(error)}; still there: ${(await mentions(leaver.userId)).join(', ')}`,
      )
    })
    expect(left).toEqual([])
    // And media removed the leaver's pictures from the bucket.
    await waitFor(async () => (await fetch(pictureUrl)).status === 404, {
      timeoutMs: 60_000,
      what: "the leaver's profile picture removed",
    })
    const login = await call('POST', '/api/auth/direct-login', undefined, {
      email: leaver.email,
      password: leaver.password,
    })
    expect(login.status).toBe(404)

    // The worker keeps their account, profile and post.
    expect((await call('GET', `/api/users/${worker.userId}`, worker.token)).status).toBe(200)
    expect((await call('GET', `/api/jobs/${workersPost.body._id}`, worker.token)).status).toBe(200)
  })
})
