import { randomBytes } from 'node:crypto'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import sharp from 'sharp'
import { allVariantKeys, variantKey } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { waitFor } from '@marketplace/service-kit/testing'
import { pngBytes, publicUrl, startMediaTestApp } from '../test/media-test-app'
import { publishPost } from '../test/picture-events'

// Real MinIO, FerretDB and Kafka, driven as the web app does: a slot, a plain PUT, then
// POST /api/upload/complete; and as a plain client that never calls complete.
describe('media service: checked pictures and their sizes', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>

  beforeAll(async () => {
    media = await startMediaTestApp('complete')
    await media.app.events.ready
  })

  afterAll(async () => {
    await media?.close()
  })

  const hexId = () => randomBytes(12).toString('hex')
  const photo = (width = 2000, height = 1500) =>
    sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 200 } } })
      .jpeg()
      .toBuffer()

  async function uploaded(userId: string, body: Buffer, fileType: string) {
    const slot = await media.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { fileName: 'picture', fileType, fileSize: body.length },
    })
    expect(slot.statusCode).toBe(200)
    const { presignedUrl, objectKey } = slot.json() as Record<string, string>
    const put = await fetch(presignedUrl!, {
      method: 'PUT',
      headers: { 'content-type': fileType },
      body,
    })
    expect(put.status).toBe(200)
    return objectKey!
  }

  const complete = (userId: string, objectKey: string) =>
    media.app.inject({
      method: 'POST',
      url: '/api/upload/complete',
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { objectKey },
    })

  const stored = async (key: string) => {
    try {
      await media.admin.send(new HeadObjectCommand({ Bucket: media.config.S3_BUCKET, Key: key }))
      return true
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFound') return false
      throw error
    }
  }

  it('answers the size and the variants, served publicly as WebP and as JPEG', async () => {
    const userId = hexId()
    const key = await uploaded(userId, await photo(), 'image/jpeg')

    const answer = await complete(userId, key)
    expect(answer.statusCode).toBe(200)
    expect(answer.json()).toEqual({
      objectKey: key,
      width: 2000,
      height: 1500,
      variants: allVariantKeys(key),
    })

    const card = await fetch(publicUrl(media.config, variantKey(key, 'w480', 'webp')!))
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toBe('image/webp')
    expect(card.headers.get('cache-control')).toContain('max-age=31536000')
    const cardBytes = Buffer.from(await card.arrayBuffer())
    expect(await sharp(cardBytes).metadata()).toMatchObject({ width: 480, height: 360 })
    const fallback = await fetch(publicUrl(media.config, variantKey(key, 'w960', 'fallback')!))
    expect(fallback.headers.get('content-type')).toBe('image/jpeg')

    // Asked again: the same answer, nothing made twice.
    expect((await complete(userId, key)).json()).toEqual(answer.json())
  })

  it('refuses bytes that are not a picture of the declared type, and removes them', async () => {
    const userId = hexId()
    const key = await uploaded(userId, Buffer.from('<svg onload="alert(1)"></svg>'), 'image/png')
    expect(await stored(key)).toBe(true)

    const answer = await complete(userId, key)
    expect(answer.statusCode).toBe(400)
    expect(answer.json()).toEqual({ message: Messages.upload.notAPicture, code: 'NOT_A_PICTURE' })
    expect(await stored(key)).toBe(false)
    // Gone: asking again is a 404, not a second check.
    expect((await complete(userId, key)).statusCode).toBe(404)
  })

  it("is 404 for another user's key, a made-up key and a slot nothing was PUT to", async () => {
    const owner = hexId()
    const key = await uploaded(owner, pngBytes(8, 6), 'image/png')
    const stranger = await complete(hexId(), key)
    expect(stranger.statusCode).toBe(404)
    expect(stranger.json()).toEqual({
      message: Messages.upload.pictureNotFound,
      code: 'PICTURE_NOT_FOUND',
    })
    expect(await stored(variantKey(key, 'w480', 'webp')!)).toBe(false)

    expect((await complete(owner, `jobImages/${owner}/made-up.png`)).statusCode).toBe(404)

    const slot = await media.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { authorization: `Bearer ${media.tokenFor(owner)}` },
      payload: { fileName: 'a.png', fileType: 'image/png', fileSize: 100 },
    })
    const { objectKey } = slot.json() as { objectKey: string }
    expect((await complete(owner, objectKey)).statusCode).toBe(404)
  })

  it('needs a token and an objectKey', async () => {
    const anonymous = await media.app.inject({
      method: 'POST',
      url: '/api/upload/complete',
      payload: { objectKey: 'jobImages/x/y.png' },
    })
    expect(anonymous.statusCode).toBe(401)
    const empty = await media.app.inject({
      method: 'POST',
      url: '/api/upload/complete',
      headers: { authorization: `Bearer ${media.tokenFor(hexId())}` },
      payload: {},
    })
    expect(empty.statusCode).toBe(400)
  })

  it('a client that never calls complete: the sizes are made when a post takes the picture up', async () => {
    const userId = hexId()
    const key = await uploaded(userId, await photo(1200, 900), 'image/jpeg')
    expect(await stored(variantKey(key, 'w480', 'webp')!)).toBe(false)

    await publishPost('post.created', userId, key)
    await waitFor(async () => await stored(variantKey(key, 'w1280', 'fallback')!), {
      timeoutMs: 60_000,
      what: 'the variants of an attached picture',
    })
    for (const variant of allVariantKeys(key)) expect(await stored(variant)).toBe(true)
  })

  it('a client that never calls complete: bytes that are not a picture go when a post names them', async () => {
    const userId = hexId()
    const key = await uploaded(userId, Buffer.from('plain text, not a JPEG'), 'image/jpeg')
    expect(await stored(key)).toBe(true)

    await publishPost('post.created', userId, key)
    await waitFor(async () => !(await stored(key)), {
      timeoutMs: 60_000,
      what: 'the false picture removed',
    })
    expect(await stored(variantKey(key, 'w480', 'webp')!)).toBe(false)
  })
})
