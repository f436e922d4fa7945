import { createServer, connect, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import {
  CreateBucketCommand,
  GetBucketCorsCommand,
  GetBucketPolicyCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
import { buildMediaApp } from '../app'
import {
  adminClient,
  dropBucket,
  pngBytes,
  publicUrl,
  startMediaTestApp,
  testConfig,
} from '../test/media-test-app'
import { corsRules, ensureBucket } from './ensure-bucket'

// Bucket setup at start, against the real MinIO of infra/local.
describe('bucket setup', () => {
  it('creates the bucket with read access for the two picture prefixes only, and says ready', async () => {
    const media = await startMediaTestApp('setup')
    try {
      const { Policy } = await media.admin.send(
        new GetBucketPolicyCommand({ Bucket: media.config.S3_BUCKET }),
      )
      const statements = JSON.parse(Policy!).Statement as Array<Record<string, unknown>>
      expect(statements).toHaveLength(1)
      expect(statements[0]).toMatchObject({ Effect: 'Allow' })
      expect([statements[0]!.Action].flat()).toEqual(['s3:GetObject'])
      expect([statements[0]!.Resource].flat().sort()).toEqual([
        `arn:aws:s3:::${media.config.S3_BUCKET}/jobImages/*`,
        `arn:aws:s3:::${media.config.S3_BUCKET}/userImages/*`,
      ])

      // The consumer groups (user.deleted, attachments) have joined, and the database that
      // keeps the quotas and the uploads awaiting attachment answers.
      await media.app.events.ready
      const ready = await media.app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { s3: 'ok', mongodb: 'ok', 'consumer-groups': 'ok' },
      })
    } finally {
      await media.close()
    }
  })

  it('running it again changes nothing, and sets CORS for the app where the server supports it', async () => {
    const config = testConfig('again')
    const client = adminClient(config)
    try {
      const settings = {
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        appOrigins: config.appOrigins,
      }
      const first = await ensureBucket(client, settings)
      const policyBefore = await client.send(
        new GetBucketPolicyCommand({ Bucket: config.S3_BUCKET }),
      )
      const second = await ensureBucket(client, settings)
      const policyAfter = await client.send(
        new GetBucketPolicyCommand({ Bucket: config.S3_BUCKET }),
      )
      expect(first.created).toBe(true)
      expect(second).toEqual({ created: false, corsApplied: first.corsApplied })
      // The same policy; MinIO answers the resources of a statement in no fixed order.
      expect(normalizedPolicy(policyAfter.Policy)).toEqual(normalizedPolicy(policyBefore.Policy))
      // MinIO has no per-bucket CORS (NotImplemented); AWS S3 and others do.
      if (first.corsApplied) {
        const { CORSRules } = await client.send(
          new GetBucketCorsCommand({ Bucket: config.S3_BUCKET }),
        )
        expect(CORSRules).toEqual(corsRules(config.appOrigins))
      }
    } finally {
      await dropBucket(client, config.S3_BUCKET)
      client.destroy()
    }
  })

  it('narrows an existing bucket that was readable as a whole', async () => {
    const config = testConfig('narrow')
    const client = adminClient(config)
    const bucket = config.S3_BUCKET
    try {
      // What `mc anonymous set download` (compose's minio-init) leaves behind.
      await client.send(new CreateBucketCommand({ Bucket: bucket }))
      await client.send(
        new PutBucketPolicyCommand({
          Bucket: bucket,
          Policy: JSON.stringify({
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: '*',
                Action: 's3:GetObject',
                Resource: `arn:aws:s3:::${bucket}/*`,
              },
            ],
          }),
        }),
      )
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: 'private/a.png', Body: pngBytes() }),
      )
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: 'userImages/u/a.png', Body: pngBytes() }),
      )
      expect((await fetch(publicUrl(config, 'private/a.png'))).status).toBe(200)

      const outcome = await ensureBucket(client, {
        bucket,
        region: config.S3_REGION,
        appOrigins: config.appOrigins,
      })
      expect(outcome.created).toBe(false)
      expect((await fetch(publicUrl(config, 'private/a.png'))).status).toBe(403)
      expect((await fetch(publicUrl(config, 'userImages/u/a.png'))).status).toBe(200)
    } finally {
      await dropBucket(client, bucket)
      client.destroy()
    }
  })
})

describe('bucket setup while S3 is not up yet', () => {
  let proxy: Server | null = null

  afterEach(async () => {
    await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)))
    proxy = null
  })

  it('the service stays alive, is not ready, keeps trying, and is ready once S3 answers', async () => {
    const port = await freePort()
    const config = testConfig('late', { S3_ENDPOINT: `http://127.0.0.1:${port}` })
    const app = await buildMediaApp(config)
    const client = adminClient(testConfig('late-admin'))
    try {
      await app.ready()
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
      const notReady = await app.inject({ method: 'GET', url: '/readyz' })
      expect(notReady.statusCode).toBe(503)
      expect(notReady.json().checks.s3).toMatch(/^bucket not set up yet/)

      // S3 "starts": a plain TCP relay to the real MinIO on the port the service was given.
      const s3 = new URL(infraEnv().s3Endpoint)
      proxy = createServer((socket) => {
        const upstream = connect(Number(s3.port), s3.hostname)
        socket.pipe(upstream).pipe(socket)
        socket.on('error', () => upstream.destroy())
        upstream.on('error', () => socket.destroy())
      })
      await new Promise<void>((resolve) => proxy!.listen(port, '127.0.0.1', resolve))

      await app.storage.bucketReady
      // Readiness also waits for the "media" consumer group to join Kafka, which on a busy
      // broker can take longer than the bucket: wait for both, then check the s3 part.
      await app.events.ready
      const ready = await app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.json().checks.s3).toBe('ok')
      expect(ready.statusCode).toBe(200)
    } finally {
      await app.close()
      await dropBucket(client, config.S3_BUCKET)
      client.destroy()
    }
  })

  it('aborting the setup ends the S3 request in flight instead of waiting for its answer', async () => {
    // An S3 that accepts connections and never answers, and a client with no time-out of its
    // own: without the abort, the setup would wait for ever (and this test time out).
    const connections: Array<import('node:net').Socket> = []
    proxy = createServer((socket) => connections.push(socket))
    const port = await listenOnFreePort(proxy)
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 1,
      requestHandler: { requestTimeout: 0 },
    })
    const abort = new AbortController()
    try {
      const setup = ensureBucket(
        client,
        { bucket: 'never-answers', region: 'us-east-1', appOrigins: [] },
        abort.signal,
      )
      await waitFor(() => connections.length === 1)
      abort.abort()
      await expect(setup).rejects.toMatchObject({ name: 'AbortError' })
    } finally {
      client.destroy()
      for (const socket of connections) socket.destroy()
    }
  })

  it('closing the service ends the retries: the setup is abandoned and S3 hears nothing more', async () => {
    let attempts = 0
    proxy = createServer((socket) => {
      attempts += 1
      socket.destroy()
    })
    const port = await listenOnFreePort(proxy)
    const app = await buildMediaApp(
      testConfig('never', { S3_ENDPOINT: `http://127.0.0.1:${port}` }),
    )
    await app.ready()
    await waitFor(() => attempts >= 1)
    await app.close()
    await expect(app.storage.bucketReady).rejects.toThrow()
    const afterClose = attempts
    // Longer than the retry delays (0.5 s, then 1 s): a loop still running would call again.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(attempts).toBe(afterClose)
  })
})

/** Listens on a port the OS picks; answers it. */
async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** A port nothing listens on (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A bucket policy with each statement's resource list sorted, for comparing two readings. */
function normalizedPolicy(text: string | undefined) {
  const policy = JSON.parse(text ?? '{}') as { Statement?: Array<{ Resource?: unknown }> }
  for (const statement of policy.Statement ?? []) {
    statement.Resource = [statement.Resource].flat().sort()
  }
  return policy
}
