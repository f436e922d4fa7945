import { randomBytes } from 'node:crypto'
import { infraEnv } from '@marketplace/service-kit/testing'
import { createS3SnapshotStore, type SnapshotHeader } from './snapshot-store'

// The snapshot store against the real local S3 server (MinIO, infra/local): what is written
// is read back whole, in order, with the header that says where in the topics it stands;
// a model never written reads as nothing; a record longer than an upload part survives.

jest.setTimeout(30_000)

function storeOfThisRun() {
  const env = infraEnv()
  return createS3SnapshotStore({
    endpoint: env.s3Endpoint,
    region: env.s3Region,
    accessKeyId: env.s3AccessKey,
    secretAccessKey: env.s3SecretKey,
    bucket: 'read-model-snapshots-test',
    // Each run its own keys, so runs never read each other's snapshots.
    prefix: `test-${randomBytes(6).toString('hex')}/`,
  })
}

async function* from<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item
}

async function all(records: AsyncIterable<unknown>): Promise<unknown[]> {
  const read: unknown[] = []
  for await (const record of records) read.push(record)
  return read
}

const header = (model: string, count: number): SnapshotHeader => ({
  format: 1,
  model,
  takenAt: '2026-11-27T12:00:00.000Z',
  positions: [
    { topic: 'jobs.posts', partition: 0, offset: '41' },
    { topic: 'jobs.posts', partition: 1, offset: '7' },
  ],
  count,
})

describe('S3 snapshot store', () => {
  it('reads a model never written as nothing, and no time taken', async () => {
    const store = storeOfThisRun()
    expect(await store.read('never-written')).toBeNull()
    expect(await store.takenAt('never-written')).toBeNull()
  })

  it('reads back the header and every record, in the order written', async () => {
    const store = storeOfThisRun()
    const records = Array.from({ length: 2_000 }, (_, i) => ({ id: `p${i}`, title: `Post ${i}` }))
    const { bytes } = await store.write(header('jobs-feed', records.length), from(records))
    expect(bytes).toBeGreaterThan(0)

    const snapshot = await store.read('jobs-feed')
    expect(snapshot?.header).toEqual(header('jobs-feed', records.length))
    expect(await all(snapshot!.records)).toEqual(records)
    // Gzipped: far fewer bytes than the text.
    expect(snapshot!.bytes()).toBeLessThan(JSON.stringify(records).length)
    expect((await store.takenAt('jobs-feed'))?.toISOString()).toBe('2026-11-27T12:00:00.000Z')
  })

  it('replaces a model whole: a second write is what the next read gets', async () => {
    const store = storeOfThisRun()
    await store.write(header('people-feed', 2), from([{ v: 1 }, { v: 2 }]))
    await store.write(
      { ...header('people-feed', 1), takenAt: '2026-11-28T00:00:00.000Z' },
      from([{ v: 3 }]),
    )
    const snapshot = await store.read('people-feed')
    expect(snapshot?.header.count).toBe(1)
    expect(await all(snapshot!.records)).toEqual([{ v: 3 }])
  })

  it('keeps each model apart: one model is never read as another', async () => {
    const store = storeOfThisRun()
    await store.write(header('model-a', 1), from([{ a: true }]))
    expect(await store.read('model-b')).toBeNull()
    expect(await all((await store.read('model-a'))!.records)).toEqual([{ a: true }])
  })

  it('keeps a record larger than an upload part (a columnar block) whole', async () => {
    const store = storeOfThisRun()
    // Base64 of random bytes gzips to about three quarters of its size: 12 MB of text is
    // over 9 MB gzipped, more than one 8 MB part.
    const block = randomBytes(9 * 1024 * 1024).toString('base64')
    const { bytes } = await store.write(header('big-feed', 2), from([{ block }, { after: 1 }]))
    expect(bytes).toBeGreaterThan(8 * 1024 * 1024)
    const read = await all((await store.read('big-feed'))!.records)
    expect(read).toHaveLength(2)
    expect((read[0] as { block: string }).block === block).toBe(true)
    expect(read[1]).toEqual({ after: 1 })
  })
})
