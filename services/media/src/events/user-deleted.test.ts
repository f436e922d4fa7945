import { randomBytes } from 'node:crypto'
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { pngBytes, startMediaTestApp } from '../test/media-test-app'
import {
  UPLOADS_COLLECTION,
  UPLOAD_MINUTES_COLLECTION,
  UPLOAD_QUOTAS_COLLECTION,
} from '../uploads/upload-documents'

// Real MinIO and Kafka: the pictures of a purged user leave the bucket, nobody else's do.
describe('media service: user.deleted', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>

  beforeAll(async () => {
    media = await startMediaTestApp('user-deleted')
    await media.app.events.ready
  })

  afterAll(async () => {
    await media?.close()
  })

  const userId = () => randomBytes(12).toString('hex')
  const put = (key: string) =>
    media.admin.send(
      new PutObjectCommand({
        Bucket: media.config.S3_BUCKET,
        Key: key,
        Body: pngBytes(),
        ContentType: 'image/png',
      }),
    )
  const keysUnder = async (prefix: string) =>
    (
      (
        await media.admin.send(
          new ListObjectsV2Command({ Bucket: media.config.S3_BUCKET, Prefix: prefix }),
        )
      ).Contents ?? []
    ).map((object) => object.Key)

  it("removes the user's profile and post pictures, and keeps everyone else's", async () => {
    const leaver = userId()
    const other = userId()
    await put(`userImages/${leaver}/me.png`)
    await put(`userImages/${leaver}/older.png`)
    await put(`jobImages/${leaver}/sofa.png`)
    await put(`userImages/${other}/me.png`)
    // A longer id starting with the leaver's must survive: prefixes end with a slash.
    await put(`jobImages/${leaver}0/not-theirs.png`)

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: leaver, actorId: null, data: { userId: leaver } }),
    )
    await waitFor(
      async () =>
        (await keysUnder(`userImages/${leaver}/`)).length === 0 &&
        (await keysUnder(`jobImages/${leaver}/`)).length === 0,
      { timeoutMs: 60_000, what: "the leaver's pictures removed" },
    )
    expect(await keysUnder(`userImages/${other}/`)).toEqual([`userImages/${other}/me.png`])
    expect(await keysUnder(`jobImages/${leaver}0/`)).toEqual([
      `jobImages/${leaver}0/not-theirs.png`,
    ])
  })

  it("forgets the user's upload slots not yet swept, and keeps everyone else's", async () => {
    const leaver = userId()
    const other = userId()
    const slot = async (user: string) => {
      const answer = await media.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { authorization: `Bearer ${media.tokenFor(user)}` },
        payload: { fileName: 'sofa.png', fileType: 'image/png', fileSize: 100 },
      })
      expect(answer.statusCode).toBe(200)
      return (answer.json() as { objectKey: string }).objectKey
    }
    const leaverKey = await slot(leaver)
    const otherKey = await slot(other)
    const db = media.app.mongo.db
    // Every document of the bookkeeping, as text: where a user id would show.
    const bookkeeping = async () => {
      const documents: unknown[] = []
      for (const name of [UPLOADS_COLLECTION, UPLOAD_MINUTES_COLLECTION, UPLOAD_QUOTAS_COLLECTION]) {
        documents.push(...(await db.collection(name).find({}).toArray()))
      }
      return JSON.stringify(documents)
    }
    expect(await bookkeeping()).toContain(leaver)

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: leaver, actorId: null, data: { userId: leaver } }),
    )
    await waitFor(async () => !(await bookkeeping()).includes(leaver), {
      timeoutMs: 60_000,
      what: "the leaver's slots forgotten",
    })
    const kept = await bookkeeping()
    expect(kept).toContain(otherKey)
    expect(kept).toContain(`${other}:`)
    expect(kept).not.toContain(leaverKey)
  })
})
