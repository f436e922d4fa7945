import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { deflateSync } from 'node:zlib'
import {
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3'
import {
  infraEnv,
  recordQueryShapes,
  signTestToken,
  testKeyPair,
  testMongoUrl,
} from '@marketplace/service-kit/testing'
import { buildMediaApp } from '../app'
import { readConfig, type MediaConfig } from '../config'
import { createS3Client } from '../storage/s3-client'

export const APP_ORIGIN = 'http://127.0.0.1:8080'

/** A bucket of its own for one test file, so suites of several packages can run at once. */
export function testBucketName(label: string): string {
  return `test-media-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(4).toString('hex')}`
}

/**
 * The settings `server.ts` would read, pointed at the real local servers: a fresh bucket and
 * a fresh database.
 */
export function testConfig(label: string, env: Record<string, string> = {}): MediaConfig {
  const infra = infraEnv()
  return readConfig({
    JWT_PUBLIC_KEY: testKeyPair().publicKey,
    S3_ENDPOINT: infra.s3Endpoint,
    // Locally the browser reaches MinIO at the address the service uses.
    S3_PUBLIC_URL: infra.s3Endpoint,
    S3_REGION: infra.s3Region,
    S3_ACCESS_KEY: infra.s3AccessKey,
    S3_SECRET_KEY: infra.s3SecretKey,
    S3_BUCKET: testBucketName(label),
    // monitorCommands: tests may check what the service asks the database.
    MONGO_URL: `${testMongoUrl(`media_${label}`)}&monitorCommands=true`,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_GROUP_PREFIX: `test-media-${randomBytes(4).toString('hex')}-`,
    // New groups start now rather than replaying every earlier test's posts and profiles.
    KAFKA_NEW_GROUPS_SINCE: String(Date.now()),
    LOG_LEVEL: 'silent',
    ...env,
  })
}

/**
 * The media service as server.ts builds it, against the real MinIO of infra/local, with its
 * own key pair for signing access tokens and its own bucket (set up before this returns).
 */
export async function startMediaTestApp(label: string, env: Record<string, string> = {}) {
  const keys = testKeyPair()
  const config = testConfig(label, { JWT_PUBLIC_KEY: keys.publicKey, ...env })
  const app = await buildMediaApp(config)
  // Every query's shape, for the index check.
  const queryShapes = recordQueryShapes(app.mongo.db)
  queryShapes.attach(app.mongo.client)
  await app.ready()
  await app.storage.bucketReady
  const admin = adminClient(config)
  const tokenFor = (userId: string) => {
    const now = Math.floor(Date.now() / 1000)
    return signTestToken(keys.privateKey, {
      sub: userId,
      roles: ['2000'],
      iss: config.JWT_ISSUER,
      aud: config.JWT_AUDIENCE,
      iat: now,
      exp: now + 900,
    })
  }
  let baseUrl: string | null = null
  /** The app on a real port, for tests that drive it as a plain HTTP client would. */
  const listen = async () => {
    if (!baseUrl) {
      await app.listen({ host: '127.0.0.1', port: 0 })
      baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    }
    return baseUrl
  }
  const close = async () => {
    await queryShapes.flush()
    await app.mongo.db.dropDatabase()
    await app.close()
    await dropBucket(admin, config.S3_BUCKET)
    admin.destroy()
  }
  return { app, config, keys, admin, tokenFor, listen, close }
}

/** A client with the service's credentials at the internal address, for checks and cleanup. */
export function adminClient(config: MediaConfig): S3Client {
  return createS3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY,
    secretAccessKey: config.S3_SECRET_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  })
}

export async function dropBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
    const keys = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }))
    if (keys.length > 0) {
      await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }))
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }))
  } catch (error) {
    if ((error as { name?: string }).name !== 'NoSuchBucket') throw error
  }
}

/** The public address of an object, as the web app builds it from the public bucket URL. */
export function publicUrl(config: MediaConfig, key: string): string {
  return `${config.S3_PUBLIC_URL}/${config.S3_BUCKET}/${key}`
}

/**
 * A real PNG of `width` x `height` grey pixels, encoded here (signature, IHDR, one zlib IDAT,
 * IEND, each chunk with its CRC-32), so the upload carries a file a browser would display.
 */
export function pngBytes(width = 2, height = 2): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)]) // filter byte: none
  const pixels = Buffer.concat(Array.from({ length: height }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}
