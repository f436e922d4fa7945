import { randomBytes } from 'node:crypto'
import { MongoClient, type Db } from 'mongodb'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'
import { infraEnv, testKeyPair, testMongoUrl, waitFor } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, siteClient, startService, type RunningService } from './processes'

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
    favorites: testMongoUrl('system_purge_favorites'),
    reports: testMongoUrl('system_purge_reports'),
    media: testMongoUrl('system_purge_media'),
  }
  const services: RunningService[] = []
  const bucket = `purge-${randomBytes(4).toString('hex')}`

  beforeAll(async () => {
    const ports = await Promise.all(Array.from({ length: 7 }, () => freePort()))
    const [authPort, peoplePort, jobsPort, favoritesPort, reportsPort, mediaPort, gatewayPort] =
      ports
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
    const favorites = await started(
      startService('favorites-purge', 'services/favorites', {
        ...common,
        PORT: String(favoritesPort),
        MONGO_URL: databases.favorites,
      }),
    )
    const reports = await started(
      startService('reports-purge', 'services/reports', {
        ...common,
        PORT: String(reportsPort),
        MONGO_URL: databases.reports,
      }),
    )
    const media = await started(
      startService('media-purge', 'services/media', {
        ...common,
        PORT: String(mediaPort),
        MONGO_URL: databases.media,
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
        FAVORITES_URL: favorites.url,
        REPORTS_URL: reports.url,
        MEDIA_URL: media.url,
      }),
    )
    ;({ call, member } = siteClient(gateway.url))
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    for (const url of Object.values(databases)) {
      const mongo = await new MongoClient(url).connect()
      await mongo.db().dropDatabase()
      await mongo.close()
    }
  })

  // Set once the gateway is up (beforeAll).
  let call: ReturnType<typeof siteClient>['call']
  let member: ReturnType<typeof siteClient>['member']

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
    // The upload lands in private staging; completing it (as the web app does) publishes the
    // checked, re-encoded picture under its key.
    const completed = await call('POST', '/api/upload/complete', leaver.token, {
      objectKey: slot.body.objectKey,
    })
    expect(completed.status).toBe(200)
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
    // Each saves the other's post and profile, and reports them.
    await waitFor(
      async () => {
        const saves = await Promise.all([
          call('POST', '/api/favorites/posts', leaver.token, {
            userId: leaver.userId,
            postId: workersPost.body._id,
          }),
          call('POST', '/api/favorites/people', leaver.token, {
            userID: leaver.userId,
            personID: worker.userId,
          }),
          call('POST', '/api/favorites/posts', worker.token, {
            userId: worker.userId,
            postId: leaversPost.body._id,
          }),
          call('POST', '/api/favorites/people', worker.token, {
            userID: worker.userId,
            personID: leaver.userId,
          }),
        ])
        return saves.every((save) => save.status === 201 || save.status === 200)
      },
      { timeoutMs: 60_000, what: 'posts and profiles known to favorites' },
    )
    await waitFor(
      async () => {
        const reports = await Promise.all([
          call('POST', '/api/reports/posts', leaver.token, {
            postId: workersPost.body._id,
            type: 'other',
          }),
          call('POST', '/api/reports/people', worker.token, {
            reportedId: leaver.userId,
            type: 'other',
          }),
        ])
        return reports.every((report) => report.status === 201 || report.status === 409)
      },
      { timeoutMs: 60_000, what: 'posts and profiles known to reports' },
    )
    // Before: every service's database holds something of the leaver.
    const before = await mentions(leaver.userId)
    expect(new Set(before.map((place) => place.split('.')[0]))).toEqual(
      new Set(['auth', 'people', 'jobs', 'favorites', 'reports', 'media']),
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

    // The worker's favorite of the leaver's post went with it; the account, profile and post stay.
    expect((await call('GET', `/api/favorites/posts/${worker.userId}`, worker.token)).body).toEqual(
      [],
    )
    expect((await call('GET', `/api/users/${worker.userId}`, worker.token)).status).toBe(200)
    expect((await call('GET', `/api/jobs/${workersPost.body._id}`, worker.token)).status).toBe(200)
  })
})
