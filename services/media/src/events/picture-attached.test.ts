import sharp from 'sharp'
import { randomBytes } from 'node:crypto'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'
import { waitFor } from '@marketplace/service-kit/testing'
import { pngBytes, publicUrl, startMediaTestApp } from '../test/media-test-app'
import { publishPost, publishWorkerProfile } from '../test/picture-events'
import { UPLOADS_COLLECTION, type UploadDocument } from '../uploads/upload-documents'

// Real MinIO, FerretDB and Kafka: a post or a profile naming a picture marks it in use and
// gives it the headers it is served with.
describe('media service: pictures attached to posts and profiles', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>
  const picture = pngBytes(4, 3)
  const EVENT_WAIT_MS = 60_000

  beforeAll(async () => {
    media = await startMediaTestApp('attached')
    await media.app.events.ready
  })

  afterAll(async () => {
    await media?.close()
  })

  const newUser = () => randomBytes(12).toString('hex')

  async function slot(userId: string, url = '/api/upload', fileType = 'image/png') {
    const answer = await media.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { fileName: 'picture.png', fileType, fileSize: picture.length },
    })
    expect(answer.statusCode).toBe(200)
    return answer.json() as { presignedUrl: string; objectKey: string }
  }

  const upload = (key: string) =>
    media.app.mongo.db.collection<UploadDocument>(UPLOADS_COLLECTION).findOne({ _id: key })

  it("a post's picture is served for a year, with nothing else its uploader sent, and never sniffed", async () => {
    const ownerId = newUser()
    const { presignedUrl, objectKey } = await slot(ownerId)
    // Unsigned headers are stored as sent: the uploader may try its own caching or download.
    const put = await fetch(presignedUrl, {
      method: 'PUT',
      headers: {
        'content-type': 'image/png',
        'cache-control': 'no-store',
        'content-disposition': 'attachment; filename="x.html"',
      },
      body: picture,
    })
    expect(put.status).toBe(200)
    // Nothing is public before the bytes are checked (they wait in staging).
    expect((await fetch(publicUrl(media.config, objectKey))).status).toBe(404)

    await publishPost('post.created', ownerId, objectKey)

    const read = await waitFor(
      async () => {
        const response = await fetch(publicUrl(media.config, objectKey))
        return response.headers.get('cache-control') === UPLOAD_CACHE_CONTROL && response
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'the one-year cache policy on the attached picture' },
    )
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toBe('image/png')
    expect(read.headers.get('content-disposition')).toBeNull()
    expect(read.headers.get('x-content-type-options')).toBe('nosniff')
    // The checked picture, re-encoded (no metadata can ride along): same pixels, same size.
    const served = Buffer.from(await read.arrayBuffer())
    expect(await sharp(served).metadata()).toMatchObject({ format: 'png', width: 4, height: 3 })
    expect((await upload(objectKey))?.attachedAt).toBeInstanceOf(Date)
  })

  it('a worker profile picture is attached too; later events naming it change nothing', async () => {
    const userId = newUser()
    const { presignedUrl, objectKey } = await slot(
      userId,
      '/api/upload/user-profile-picture',
      'image/png',
    )
    const put = await fetch(presignedUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: picture,
    })
    expect(put.status).toBe(200)

    await publishWorkerProfile(userId, objectKey)
    const attached = await waitFor(async () => (await upload(objectKey))?.attachedAt ?? false, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the profile picture attached',
    })
    // attachedAt is written first, the object's headers a moment later (attach-picture.ts).
    const first = await waitFor(
      async () => {
        const response = await fetch(publicUrl(media.config, objectKey))
        return response.headers.get('cache-control') === UPLOAD_CACHE_CONTROL && response
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'the one-year cache policy on the profile picture' },
    )
    expect(first.status).toBe(200)

    // The same profile again (another field changed), then a new picture: events of one
    // user share a partition, so once the new picture is attached the repeat was handled.
    await publishWorkerProfile(userId, objectKey)
    const { objectKey: markerKey } = await slot(userId, '/api/upload/user-profile-picture')
    await publishWorkerProfile(userId, markerKey)
    await waitFor(async () => (await upload(markerKey))?.attachedAt ?? false, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the later events handled',
    })
    expect((await upload(objectKey))?.attachedAt).toEqual(attached)
    const again = await fetch(publicUrl(media.config, objectKey))
    // Not rewritten: the object is the one first given its headers.
    expect(again.headers.get('last-modified')).toBe(first.headers.get('last-modified'))
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
  })

  it('a picture whose upload never happened is marked in use and needs no object', async () => {
    const ownerId = newUser()
    const { objectKey } = await slot(ownerId)
    await publishPost('post.created', ownerId, objectKey)
    await waitFor(async () => (await upload(objectKey))?.attachedAt ?? false, {
      timeoutMs: EVENT_WAIT_MS,
      what: 'the never-uploaded picture marked in use',
    })
    expect((await fetch(publicUrl(media.config, objectKey))).status).not.toBe(200)
  })
})
