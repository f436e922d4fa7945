import { Readable } from 'node:stream'
import { createGunzip, createGzip } from 'node:zlib'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import type { TopicPosition } from '@marketplace/service-kit'

/** The first line of a snapshot: what it is and exactly where in the topics it stands. */
export interface SnapshotHeader {
  format: 1
  /** The read model, e.g. "jobs-feed". */
  model: string
  takenAt: string
  /**
   * Per partition of every topic the model follows, the next offset not yet applied: the
   * records hold the effect of every event before it, so following on from here applies each
   * later one and none twice (docs/scale.md).
   */
  positions: TopicPosition[]
  count: number
}

export interface StoredSnapshot {
  header: SnapshotHeader
  /** The records, one parsed JSON value each, in the order they were written. */
  records: AsyncIterable<unknown>
  bytes: () => number
}

export interface SnapshotStore {
  read(model: string): Promise<StoredSnapshot | null>
  write(header: SnapshotHeader, records: AsyncIterable<unknown>): Promise<{ bytes: number }>
  /** When the stored snapshot of `model` was taken, or null when there is none. */
  takenAt(model: string): Promise<Date | null>
}

export interface S3SnapshotStoreOptions {
  endpoint: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  bucket: string
  forcePathStyle?: boolean
  /** Under this prefix; tests give each run its own. */
  prefix?: string
}

/** S3's smallest part but the last: parts are sent as they fill, never the whole object. */
const PART_BYTES = 8 * 1024 * 1024

/**
 * Snapshots as one gzipped NDJSON object per model in S3 (the header line, then a record per
 * line). One object, read front to back in one GET, is the fastest way here to move a
 * million items into a process (docs/scale.md compares it with a compacted topic), every
 * replica reads the same one, and a PUT is atomic: a reader gets a whole old snapshot or a
 * whole new one, never a mix. Written as a multipart upload, part by part, so writing a
 * million items never holds the whole object in memory.
 */
export function createS3SnapshotStore(options: S3SnapshotStoreOptions): SnapshotStore {
  const s3 = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
  })
  const Bucket = options.bucket
  const keyOf = (model: string) => `${options.prefix ?? 'read-models/'}${model}.ndjson.gz`
  let bucketChecked = false

  async function ensureBucket(): Promise<void> {
    if (bucketChecked) return
    try {
      await s3.send(new CreateBucketCommand({ Bucket }))
    } catch (error) {
      const name = (error as { name?: string }).name
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error
    }
    bucketChecked = true
  }

  return {
    async takenAt(model) {
      try {
        const head = await s3.send(new HeadObjectCommand({ Bucket, Key: keyOf(model) }))
        const takenAt = head.Metadata?.['taken-at']
        return takenAt ? new Date(takenAt) : (head.LastModified ?? null)
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },

    async read(model) {
      let body: Readable
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket, Key: keyOf(model) }))
        body = object.Body as Readable
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
      let bytes = 0
      body.on('data', (chunk: Buffer) => (bytes += chunk.length))
      const lines = splitLines(body.pipe(createGunzip()))
      const first = await lines.next()
      if (first.done) return null
      const header = JSON.parse(first.value) as SnapshotHeader
      if (header.format !== 1 || header.model !== model) {
        body.destroy()
        return null
      }
      return {
        header,
        bytes: () => bytes,
        records: (async function* () {
          for await (const line of lines) yield JSON.parse(line)
        })(),
      }
    },

    async write(header, records) {
      await ensureBucket()
      const Key = keyOf(header.model)
      const lines = Readable.from(
        (async function* () {
          yield `${JSON.stringify(header)}\n`
          let batch = ''
          for await (const record of records) {
            batch += `${JSON.stringify(record)}\n`
            if (batch.length >= 256 * 1024) {
              yield batch
              batch = ''
            }
          }
          if (batch) yield batch
        })(),
      )
      // Level 1: several times faster to write than the default, barely larger here.
      const gzipped = lines.pipe(createGzip({ level: 1 }))
      const { UploadId } = await s3.send(
        new CreateMultipartUploadCommand({
          Bucket,
          Key,
          ContentType: 'application/x-ndjson',
          ContentEncoding: 'gzip',
          Metadata: { 'taken-at': header.takenAt },
        }),
      )
      const parts: Array<{ ETag?: string; PartNumber: number }> = []
      let bytes = 0
      try {
        let pending: Buffer[] = []
        let pendingBytes = 0
        const send = async () => {
          const PartNumber = parts.length + 1
          const Body = Buffer.concat(pending)
          const { ETag } = await s3.send(
            new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body }),
          )
          parts.push({ ETag, PartNumber })
          bytes += Body.length
          pending = []
          pendingBytes = 0
        }
        for await (const chunk of gzipped as AsyncIterable<Buffer>) {
          pending.push(chunk)
          pendingBytes += chunk.length
          if (pendingBytes >= PART_BYTES) await send()
        }
        if (pendingBytes > 0 || parts.length === 0) await send()
        await s3.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key,
            UploadId,
            MultipartUpload: { Parts: parts },
          }),
        )
      } catch (error) {
        await s3
          .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))
          .catch(() => undefined)
        throw error
      }
      return { bytes }
    },
  }
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
  return name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchBucket' || status === 404
}

/**
 * The text of a stream, line by line (without the newline); an empty last line is dropped.
 * A line longer than a chunk (a columnar feed's block of rows is a megabyte) is gathered in
 * parts and joined once: searching `rest + chunk` again for every chunk would copy the line
 * over and over.
 */
export async function* splitLines(stream: Readable): AsyncGenerator<string> {
  stream.setEncoding('utf8')
  let parts: string[] = []
  for await (const chunk of stream as AsyncIterable<string>) {
    let start = 0
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      parts.push(chunk.slice(start, end))
      yield parts.length === 1 ? parts[0]! : parts.join('')
      parts = []
      start = end + 1
    }
    if (start < chunk.length) parts.push(chunk.slice(start))
  }
  if (parts.length > 0) yield parts.join('')
}
