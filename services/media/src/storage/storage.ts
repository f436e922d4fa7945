import { setTimeout as sleep } from 'node:timers/promises'
import { HeadBucketCommand } from '@aws-sdk/client-s3'
import type { FastifyInstance } from 'fastify'
import type { MediaConfig } from '../config'
import { applyPictureCachePolicy, type CachePolicyOutcome } from './cache-policy'
import { deleteObjects } from './delete-objects'
import { deleteUnderPrefix } from './delete-prefix'
import { ensureBucket } from './ensure-bucket'
import { pictureExists, putVariant, readPicture, type StoredPicture } from './picture-objects'
import { createPutSigner, type PutSigner } from './put-signer'
import { createS3Client } from './s3-client'

declare module 'fastify' {
  interface FastifyInstance {
    storage: {
      bucket: string
      signPut: PutSigner
      /** Resolves once the bucket, its policy and its CORS rules are in place. */
      bucketReady: Promise<void>
      /** Deletes every object under a key prefix of the bucket; answers how many. */
      deleteUnderPrefix(prefix: string): Promise<number>
      /** Deletes the objects named (those already gone are no error). */
      deleteObjects(keys: readonly string[]): Promise<void>
      /** Gives an attached picture the headers it is served with (cache-policy.ts). */
      applyPictureCachePolicy(key: string): Promise<CachePolicyOutcome>
      /** An uploaded object's bytes and type; null when there is none. */
      readPicture(key: string): Promise<StoredPicture | null>
      pictureExists(key: string): Promise<boolean>
      /** Stores a variant of a picture, with the served headers. */
      putVariant(file: { key: string; contentType: string; body: Buffer }): Promise<void>
    }
  }
}

/**
 * Object storage for the service. The bucket is set up in the background, retried until S3
 * answers: the process stays alive and says "not ready" on /readyz meanwhile, instead of
 * crashing in a loop while S3 starts next to it (compose, a fresh cluster).
 */
export function setUpStorage(app: FastifyInstance, config: MediaConfig): void {
  const credentials = {
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY,
    secretAccessKey: config.S3_SECRET_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  }
  const internal = createS3Client({ ...credentials, endpoint: config.S3_ENDPOINT })
  // Signing makes no request: this client only needs the address the browser will use.
  const forBrowsers = createS3Client({ ...credentials, endpoint: config.S3_PUBLIC_URL })
  const closing = new AbortController()
  let lastError: string | null = null
  let isSetUp = false

  async function setUpBucket(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        // The close signal also aborts the request in flight: closing never waits for S3.
        const outcome = await ensureBucket(
          internal,
          {
            bucket: config.S3_BUCKET,
            region: config.S3_REGION,
            appOrigins: config.appOrigins,
          },
          closing.signal,
        )
        isSetUp = true
        app.log.info({ bucket: config.S3_BUCKET, ...outcome }, 'bucket ready')
        if (!outcome.corsApplied) {
          app.log.warn(
            { bucket: config.S3_BUCKET },
            'this S3 server has no per-bucket CORS: browsers can upload only if its own CORS setting allows the app origins',
          )
        }
        return
      } catch (error) {
        if (closing.signal.aborted) throw error
        lastError = describe(error)
        const delay = Math.min(500 * attempt, 5000)
        app.log.warn({ err: error, attempt, retryInMs: delay }, 'S3 bucket not set up yet')
        // Rejects when the app closes, which ends the loop.
        await sleep(delay, undefined, { signal: closing.signal })
      }
    }
  }

  const bucketReady = setUpBucket()
  // Unhandled-rejection guard: the loop only rejects on close, and nobody has to await it.
  bucketReady.catch(() => undefined)

  app.decorate('storage', {
    bucket: config.S3_BUCKET,
    signPut: createPutSigner(forBrowsers, {
      bucket: config.S3_BUCKET,
      expiresInSeconds: config.UPLOAD_URL_TTL_SECONDS,
    }),
    bucketReady,
    deleteUnderPrefix: (prefix: string) => deleteUnderPrefix(internal, config.S3_BUCKET, prefix),
    deleteObjects: (keys: readonly string[]) => deleteObjects(internal, config.S3_BUCKET, keys),
    applyPictureCachePolicy: (key: string) =>
      applyPictureCachePolicy(internal, config.S3_BUCKET, key),
    readPicture: (key: string) => readPicture(internal, config.S3_BUCKET, key),
    pictureExists: (key: string) => pictureExists(internal, config.S3_BUCKET, key),
    putVariant: (file) => putVariant(internal, config.S3_BUCKET, file),
  })

  app.addReadinessCheck('s3', async () => {
    if (!isSetUp) throw new Error(`bucket not set up yet${lastError ? `: ${lastError}` : ''}`)
    try {
      await internal.send(new HeadBucketCommand({ Bucket: config.S3_BUCKET }))
    } catch (error) {
      throw new Error(describe(error))
    }
  })

  app.addHook('onClose', async () => {
    closing.abort()
    internal.destroy()
    forBrowsers.destroy()
  })
}

/** HEAD answers carry no body, so the SDK's errors for them often have only a name. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  return error.message && error.message !== 'UnknownError' ? error.message : error.name
}
