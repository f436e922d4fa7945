import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { infraEnv, testKeyPair, testMongoUrl } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, startService, type RunningService } from './processes'

const repoRoot = join(__dirname, '..', '..', '..')

/** Runs the seed script as `start.sh` does; answers its exit code and output. */
function runSeed(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, 'scripts/seed/seed-demo.mjs'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

// The demo data of the README's start command, against auth, jobs, media and the gateway as
// real processes: every post goes through the API, pictures through pre-signed uploads, and
// a second run adds nothing.
/**
 * A read through the gateway as a well-behaved client makes it: the seed has just sent
 * hundreds of requests from this same address, so the gateway's per-address limit may answer
 * 429 for a few seconds; the client waits as Retry-After says and asks again, as the seed does.
 */
async function asAClientWould(url: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url)
    if (response.status !== 429 || attempt === 6) return response
    const seconds = Math.min(Number(response.headers.get('retry-after') ?? 2), 30)
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  }
}

describe('demo seed through the product', () => {
  const infra = infraEnv()
  const keys = testKeyPair()
  const databases = {
    auth: testMongoUrl('system_seed_auth'),
    jobs: testMongoUrl('system_seed_jobs'),
    people: testMongoUrl('system_seed_people'),
    favorites: testMongoUrl('system_seed_favorites'),
    reports: testMongoUrl('system_seed_reports'),
    media: testMongoUrl('system_seed_media'),
  }
  const services: RunningService[] = []
  let seedArgs: string[]
  let site: string
  const bucket = `seed-${randomBytes(4).toString('hex')}`

  beforeAll(async () => {
    const [authPort, peoplePort, jobsPort, favoritesPort, reportsPort, mediaPort, gatewayPort] =
      await Promise.all(Array.from({ length: 7 }, () => freePort()))
    const common = {
      KAFKA_BROKERS: infra.kafkaBrokers,
      KAFKA_GROUP_PREFIX: `system-seed-${randomBytes(4).toString('hex')}-`,
      JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
    }
    // Each process is remembered as soon as it runs, so a later failure still stops it.
    const started = async (service: Promise<RunningService>) => {
      services.unshift(await service)
      return services[0]!
    }
    const auth = await started(
      startService('auth-seed', 'services/auth', {
        ...common,
        ...authOnlyEnv(keys),
        PORT: String(authPort),
        MONGO_URL: databases.auth,
      }),
    )
    const people = await started(
      startService('people-seed', 'services/people', {
        ...common,
        PORT: String(peoplePort),
        MONGO_URL: databases.people,
      }),
    )
    const jobs = await started(
      startService('jobs-seed', 'services/jobs', {
        ...common,
        PORT: String(jobsPort),
        MONGO_URL: databases.jobs,
      }),
    )
    const favorites = await started(
      startService('favorites-seed', 'services/favorites', {
        ...common,
        PORT: String(favoritesPort),
        MONGO_URL: databases.favorites,
      }),
    )
    const reports = await started(
      startService('reports-seed', 'services/reports', {
        ...common,
        PORT: String(reportsPort),
        MONGO_URL: databases.reports,
      }),
    )
    const media = await started(
      startService('media-seed', 'services/media', {
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
      startService('gateway-seed', 'services/gateway', {
        PORT: String(gatewayPort),
        AUTH_URL: auth.url,
        PEOPLE_URL: people.url,
        JOBS_URL: jobs.url,
        FAVORITES_URL: favorites.url,
        REPORTS_URL: reports.url,
        MEDIA_URL: media.url,
      }),
    )
    site = gateway.url
    seedArgs = ['--base', site, '--auth', auth.url, '--mail', infra.mailApiUrl]
  })

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()))
    for (const url of Object.values(databases)) {
      const mongo = await new MongoClient(url).connect()
      await mongo.db().dropDatabase()
      await mongo.close()
    }
  })

  it('creates 30 people, 20 workers, 210 posts with pictures, favorites and reports, then nothing on a second run', async () => {
    const first = await runSeed(seedArgs)
    expect(first.output).toContain(
      '30 demo people (30 new), 20 worker profiles created (0 already there), 210 posts created, 0 already there (0 given a contact value), 90 pictures, 90 favorites and 3 reports added',
    )
    expect(first.code).toBe(0)

    // Two workers in three; 2 of the 20 switched offline (demo-data.mjs), so 18 are listed.
    const workers = (await (await asAClientWould(`${site}/api/people?limit=50`)).json()) as {
      pagination: { total: number }
      people: Array<{ profilePicture: string | null; contacts: unknown[]; title: string }>
    }
    expect(workers.pagination.total).toBe(18)
    expect(workers.people[0]?.profilePicture).toMatch(
      /^userImages\/[0-9a-f]{24}\/[0-9a-f-]{36}\.png$/,
    )
    // A guest sees the public contacts only: half the workers hide theirs.
    expect(workers.people.filter((person) => person.contacts.length === 0).length).toBeGreaterThan(
      0,
    )

    // 13 of the 210 are switched offline (demo-data.mjs), so the feed shows 197.
    const feed = (await (await asAClientWould(`${site}/api/jobs?page=1&limit=50`)).json()) as {
      pagination: { total: number }
      jobs: Array<{
        jobPicture: string | null
        displayLocation: boolean
        location: string | null
        contact: string | null
        displayContact: boolean
        contactValue?: string | null
      }>
    }
    expect(feed.pagination.total).toBe(197)
    const picture = feed.jobs.find((post) => post.jobPicture)?.jobPicture
    expect(picture).toMatch(/^jobImages\/[0-9a-f]{24}\/[0-9a-f-]{36}\.png$/)
    // Uploaded for real, and public to anyone, as the browser reads it.
    const image = await fetch(`${infra.s3Endpoint}/${bucket}/${picture}`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    const hidden = feed.jobs.find((post) => !post.displayLocation)
    expect(hidden?.location).toBeNull()
    // Every demo post with a public contact shows its value to a guest; a private one shows
    // neither its method nor its value.
    const withContact = feed.jobs.filter((post) => post.contact)
    expect(withContact.length).toBeGreaterThan(0)
    expect(withContact.filter((post) => !post.contactValue || !post.displayContact)).toEqual([])
    const privateContacts = feed.jobs.filter((post) => !post.displayContact)
    expect(privateContacts.length).toBeGreaterThan(0)
    expect(privateContacts.filter((post) => post.contact !== null || post.contactValue)).toEqual([])

    // Every person keeps two saved posts and a saved worker (demo-data.mjs favoritesOf).
    const favorites = await new MongoClient(databases.favorites).connect()
    try {
      expect(await favorites.db().collection('favorites').countDocuments({ kind: 'post' })).toBe(60)
      expect(await favorites.db().collection('favorites').countDocuments({ kind: 'person' })).toBe(
        30,
      )
    } finally {
      await favorites.close()
    }

    const second = await runSeed(seedArgs)
    expect(second.output).toContain(
      '(0 new), 0 worker profiles created (20 already there), 0 posts created, 210 already there (0 given a contact value), 0 pictures, 0 favorites and 0 reports added',
    )
    expect(second.code).toBe(0)
  })
})
