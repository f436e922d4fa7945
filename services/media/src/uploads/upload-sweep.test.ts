import { randomBytes } from 'node:crypto'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import { allVariantKeys } from '@marketplace/contracts/marketplace'
import { waitFor } from '@marketplace/service-kit/testing'
import { pngBytes, publicUrl, startMediaTestApp } from '../test/media-test-app'
import { publishPost, publishWorkerProfile } from '../test/picture-events'
import {
  UPLOADS_COLLECTION,
  UPLOAD_MINUTES_COLLECTION,
  UPLOAD_QUOTAS_COLLECTION,
  type UploadDocument,
} from './upload-documents'

const HOUR_MS = 3_600_000

// Real MinIO, FerretDB and Kafka: pictures no post or profile took up within 24 hours are
// removed; attached ones stay. The sweep is called with a clock a day ahead.
describe('media service: the sweep of unattached uploads', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>
  const picture = pngBytes(5, 4)

  beforeAll(async () => {
    media = await startMediaTestApp('sweep')
    await media.app.events.ready
  })

  afterAll(async () => {
    await media?.close()
  })

  const hexId = () => randomBytes(12).toString('hex')

  async function uploaded(userId: string, url: string, { put = true } = {}) {
    const answer = await media.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { fileName: 'picture.png', fileType: 'image/png', fileSize: picture.length },
    })
    expect(answer.statusCode).toBe(200)
    const { presignedUrl, objectKey } = answer.json() as Record<string, string>
    if (put) {
      const response = await fetch(presignedUrl!, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: picture,
      })
      expect(response.status).toBe(200)
    }
    return objectKey!
  }

  const stored = async (key: string) => {
    try {
      await media.admin.send(new HeadObjectCommand({ Bucket: media.config.S3_BUCKET, Key: key }))
      return true
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFound') return false
      throw error
    }
  }
  const collection = (name: string) => media.app.mongo.db.collection<{ _id: string }>(name)

  it('removes after 24 hours the pictures nothing attached, keeps the others, and forgets them all', async () => {
    const userId = hexId()
    const start = new Date()
    const postPicture = await uploaded(userId, '/api/upload')
    const profilePicture = await uploaded(userId, '/api/upload/user-profile-picture')
    const abandoned = await uploaded(userId, '/api/upload')
    const neverPut = await uploaded(userId, '/api/upload', { put: false })
    // The web app completes every upload: the abandoned picture has its sizes too.
    const completed = await media.app.inject({
      method: 'POST',
      url: '/api/upload/complete',
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { objectKey: abandoned },
    })
    expect(completed.statusCode).toBe(200)
    const abandonedSizes = allVariantKeys(abandoned)
    for (const key of abandonedSizes) expect(await stored(key)).toBe(true)

    await publishPost('post.created', userId, postPicture)
    await publishWorkerProfile(userId, profilePicture)
    const uploads = media.app.mongo.db.collection<UploadDocument>(UPLOADS_COLLECTION)
    await waitFor(
      async () =>
        !!(await uploads.findOne({ _id: postPicture }))?.attachedAt &&
        !!(await uploads.findOne({ _id: profilePicture }))?.attachedAt,
      { timeoutMs: 60_000, what: 'both pictures attached' },
    )

    // A day less an hour later: nothing is old enough.
    const early = await media.app.sweepUnattachedUploads(new Date(start.getTime() + 23 * HOUR_MS))
    expect(early.removed).toBe(0)
    expect(await stored(abandoned)).toBe(true)

    // What the sweep asks the database: one document by `_id` at a time, never a scan.
    const filters: unknown[] = []
    const listener = (event: { commandName: string; command: Record<string, unknown> }) => {
      const { command } = event
      if (event.commandName === 'find') filters.push(command.filter)
      if (event.commandName === 'update') {
        for (const update of command.updates as Array<{ q: unknown }>) filters.push(update.q)
      }
      if (event.commandName === 'delete') {
        for (const remove of command.deletes as Array<{ q: unknown }>) filters.push(remove.q)
      }
    }
    media.app.mongo.client.on('commandStarted', listener)
    let late
    try {
      late = await media.app.sweepUnattachedUploads(new Date(start.getTime() + 25 * HOUR_MS))
    } finally {
      media.app.mongo.client.off('commandStarted', listener)
    }
    expect(late).toMatchObject({ removed: 2, kept: 2 })
    expect(filters.length).toBeGreaterThan(0)
    for (const filter of filters) {
      expect(typeof (filter as { _id?: unknown })._id).toBe('string')
    }

    expect(await stored(abandoned)).toBe(false)
    for (const key of abandonedSizes) expect(await stored(key)).toBe(false)
    expect(await stored(neverPut)).toBe(false)
    expect(await stored(postPicture)).toBe(true)
    expect(await stored(profilePicture)).toBe(true)
    expect((await fetch(publicUrl(media.config, postPicture))).status).toBe(200)

    // Nothing of the swept slots stays behind: their records, their minute, the day's counter.
    for (const key of [postPicture, profilePicture, abandoned, neverPut]) {
      expect(await collection(UPLOADS_COLLECTION).findOne({ _id: key })).toBeNull()
    }
    expect(await collection(UPLOAD_MINUTES_COLLECTION).countDocuments()).toBe(0)
    expect(await collection(UPLOAD_QUOTAS_COLLECTION).countDocuments()).toBe(0)

    // Swept once: running again at the same hour finds nothing to do.
    const again = await media.app.sweepUnattachedUploads(new Date(start.getTime() + 25 * HOUR_MS))
    expect(again).toEqual({ minutes: 0, removed: 0, kept: 0 })
  })
})
