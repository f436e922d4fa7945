import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MongoClient } from 'mongodb'
import { infraEnv, testKeyPair, testMongoUrl } from '@marketplace/service-kit/testing'
import { authOnlyEnv, freePort, freePorts, startService, type RunningService } from '../processes'

const SERVICES = [
  'auth',
  'people',
  'jobs',
  'media',
  'favorites',
  'reports',
  'notifications',
  'conversations',
  'analytics',
] as const
export type ServiceName = (typeof SERVICES)[number]

export interface FullStackOptions {
  /** More environment for a service, over the stack's own (a short token lifetime for auth). */
  env?: Partial<Record<ServiceName, Record<string, string>>>
  /**
   * Instances of every service (default 1), as `REPLICAS=2 start.sh` runs them: each its own
   * process with INSTANCE_ID `<service>-<n>`, all of them behind the gateway.
   */
  replicas?: number
  /** More environment for the gateway (its METRICS_PORT, say). */
  gatewayEnv?: Record<string, string>
}

export interface FullStack {
  /** The gateway: the site a browser opens. */
  site: string
  /** Every service's running instances, in order (`instances.jobs[0]` is `jobs-1`). */
  instances: Record<ServiceName, RunningService[]>
  /** Each service's database, for a test that checks what was stored. */
  databases: Record<ServiceName, string>
  admin: { email: string; password: string }
  /** The PEM every service verifies access tokens with (public: what an attacker may know). */
  jwtPublicKey: string
  stop(): Promise<void>
}

const webDist = join(__dirname, '..', '..', '..', '..', 'apps', 'web', 'dist')

/**
 * The whole product as start.sh runs it, every service its own process (or `replicas` of
 * them) behind the gateway, which serves the built web app: what the browser journeys drive.
 * Own databases, own consumer groups and own bucket, dropped again by stop().
 */
export async function startFullStack(
  name: string,
  options: FullStackOptions = {},
): Promise<FullStack> {
  const infra = infraEnv()
  const keys = testKeyPair()
  const suffix = randomBytes(4).toString('hex')
  const bucket = `web-${name}-${suffix}`.toLowerCase()
  const admin = { email: `admin-${suffix}@example.test`, password: 'Admin2026!' }
  const databases = Object.fromEntries(
    SERVICES.map((service) => [service, testMongoUrl(`web_${name}_${service}`)]),
  ) as Record<ServiceName, string>
  const common = {
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_GROUP_PREFIX: `web-${name}-${suffix}-`,
    JWT_PUBLIC_KEY: Buffer.from(keys.publicKey).toString('base64'),
    OUTBOX_POLL_MS: '200',
  }
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(`no web app build in ${webDist}: run pnpm --filter @marketplace/web build`)
  }
  // A copy, so a rebuild of apps/web during the run cannot pull the pages from under it.
  const servedDist = await mkdtemp(join(tmpdir(), `web-dist-${name}-`))
  await cp(webDist, servedDist, { recursive: true })
  const running: RunningService[] = []
  const upstreams: Record<string, string> = {}
  const replicas = options.replicas ?? 1
  const instances = Object.fromEntries(
    SERVICES.map((service): [ServiceName, RunningService[]] => [service, []]),
  ) as Record<ServiceName, RunningService[]>
  // One signing key and one HMAC secret for every auth instance: a code or XSRF token one
  // issues, the other must accept.
  const authEnv = authOnlyEnv(keys)
  let site = ''
  try {
    for (const service of SERVICES) {
      const own: Record<string, string> =
        service === 'auth'
          ? { ...authEnv, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }
          : service === 'media'
            ? {
                S3_ENDPOINT: infra.s3Endpoint,
                S3_PUBLIC_URL: infra.s3Endpoint,
                S3_REGION: infra.s3Region,
                S3_ACCESS_KEY: infra.s3AccessKey,
                S3_SECRET_KEY: infra.s3SecretKey,
                S3_BUCKET: bucket,
              }
            : service === 'notifications'
              ? { SMTP_HOST: infra.smtpHost, SMTP_PORT: String(infra.smtpPort) }
              : {}
      // A service's instances start together; services one after another, as before.
      const ports = await freePorts(replicas)
      const settled = await Promise.allSettled(
        ports.map(async (port, i) => {
          const instance = replicas > 1 ? `-${i + 1}` : ''
          const one = await startService(
            `${service}${instance}-web-${name}`,
            `services/${service}`,
            {
              ...common,
              ...own,
              ...options.env?.[service],
              ...(replicas > 1 ? { INSTANCE_ID: `${service}-${i + 1}` } : {}),
              PORT: String(port),
              MONGO_URL: databases[service],
            },
          )
          running.unshift(one)
          return one
        }),
      )
      // Every instance that started is in `running` (stopped below) before a failure is thrown.
      const failed = settled.find((result) => result.status === 'rejected')
      if (failed) throw (failed as PromiseRejectedResult).reason
      const started = settled.map(
        (result) => (result as PromiseFulfilledResult<RunningService>).value,
      )
      instances[service].push(...started)
      upstreams[`${service.toUpperCase()}_URL`] = instances[service].map((i) => i.url).join(',')
    }
    const gatewayPort = await freePort()
    site = `http://127.0.0.1:${gatewayPort}`
    const gateway = await startService(`gateway-web-${name}`, 'services/gateway', {
      ...upstreams,
      PORT: String(gatewayPort),
      WEB_DIST_DIR: servedDist,
      PUBLIC_BUCKET_URL: `${infra.s3Endpoint}/${bucket}`,
      S3_ENDPOINT: infra.s3Endpoint,
      // A journey makes many calls from one address in little time.
      RATE_LIMIT_MAX: '100000',
      ANALYTICS_RATE_LIMIT_MAX: '100000',
      KAFKA_BROKERS: infra.kafkaBrokers,
      ...options.gatewayEnv,
    })
    running.unshift(gateway)
  } catch (error) {
    await Promise.all(running.map((service) => service.stop()))
    await rm(servedDist, { recursive: true, force: true })
    throw error
  }

  return {
    site,
    instances,
    databases,
    admin,
    jwtPublicKey: keys.publicKey,
    async stop() {
      await Promise.all(running.map((service) => service.stop()))
      await rm(servedDist, { recursive: true, force: true })
      for (const url of Object.values(databases)) {
        const mongo = await new MongoClient(url).connect()
        await mongo.db().dropDatabase()
        await mongo.close()
      }
    },
  }
}
