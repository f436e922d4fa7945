import { randomBytes } from 'node:crypto'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import sharp from 'sharp'
import { allVariantKeys, variantKey } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { waitFor } from '@marketplace/service-kit/testing'
import { pngBytes, publicUrl, startMediaTestApp } from '../test/media-test-app'
import { publishPost } from '../test/picture-events'
import { stagingKeyOf } from '../storage/staging-keys'

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
    expect(await stored(stagingKeyOf(key))).toBe(true)
    expect(await stored(key)).toBe(false)

    const answer = await complete(userId, key)
    expect(answer.statusCode).toBe(400)
    expect(answer.json()).toEqual({ message: Messages.upload.notAPicture, code: 'NOT_A_PICTURE' })
    expect(await stored(stagingKeyOf(key))).toBe(false)
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
    expect(await stored(stagingKeyOf(key))).toBe(true)

    await publishPost('post.created', userId, key)
    await waitFor(async () => !(await stored(stagingKeyOf(key))), {
      timeoutMs: 60_000,
      what: 'the false picture removed',
    })
    expect(await stored(variantKey(key, 'w480', 'webp')!)).toBe(false)
    expect(await stored(key)).toBe(false)
  })

  /** A phone photo: EXIF with the maker and the GPS position, turned by its orientation tag. */
  const phonePhoto = () =>
    sharp({
      create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 60, b: 30 } },
    })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneMaker', Model: 'Pocket 9' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '40/1 44/1 5432/100',
          GPSLongitudeRef: 'W',
          GPSLongitude: '73/1 59/1 1234/100',
        },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer()

  /** Every public address of a picture, read anonymously as anyone on the internet can. */
  const publicFiles = async (key: string) =>
    Promise.all(
      [key, ...allVariantKeys(key)].map(async (path) => {
        const response = await fetch(publicUrl(media.config, path))
        return { path, status: response.status, body: Buffer.from(await response.arrayBuffer()) }
      }),
    )

  it.each([
    ['completed by the web app', 'complete'],
    ['never completed, then named by a post', 'post'],
  ])('a phone photo %s is public with no metadata, still upright', async (_label, how) => {
    const userId = hexId()
    const original = await phonePhoto()
    expect((await sharp(original).metadata()).exif?.toString('latin1')).toContain('PhoneMaker')
    const key = await uploaded(userId, original, 'image/jpeg')
    // Before the check, no public address answers anything.
    expect((await publicFiles(key)).map((file) => file.status)).toEqual(
      [key, ...allVariantKeys(key)].map(() => 404),
    )

    if (how === 'complete') {
      const answer = await complete(userId, key)
      expect(answer.statusCode).toBe(200)
      // The size of the picture as it stands (the orientation tag turned it a quarter).
      expect(answer.json()).toMatchObject({ width: 1600, height: 1200 })
    } else {
      await publishPost('post.created', userId, key)
      await waitFor(async () => await stored(key), {
        timeoutMs: 60_000,
        what: 'the attached picture published',
      })
    }

    const files = await publicFiles(key)
    expect(files.map((file) => file.status)).toEqual(files.map(() => 200))
    for (const file of files) {
      const metadata = await sharp(file.body).metadata()
      expect({
        path: file.path,
        exif: metadata.exif,
        xmp: metadata.xmp,
        iptc: metadata.iptc,
      }).toEqual({ path: file.path, exif: undefined, xmp: undefined, iptc: undefined })
      expect(metadata.orientation).toBeUndefined()
      expect(file.body.includes(Buffer.from('PhoneMaker'))).toBe(false)
    }
    // Upright: the orientation was applied to the pixels before the tag went.
    expect(await sharp(files[0]!.body).metadata()).toMatchObject({ width: 1200, height: 1600 })
    expect(await stored(stagingKeyOf(key))).toBe(false)
  })

  it('bytes PUT again with the same address after the check are never served', async () => {
    const userId = hexId()
    // Two pictures of one byte length (stored uncompressed), so the signed length fits both.
    const square = (r: number, g: number, b: number) =>
      sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g, b } } })
        .png({ compressionLevel: 0, adaptiveFiltering: false })
        .toBuffer()
    const checked = await square(0, 200, 0)
    const swapped = await square(200, 0, 0)
    expect(swapped.length).toBe(checked.length)
    const slot = await media.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { fileName: 'green.png', fileType: 'image/png', fileSize: checked.length },
    })
    const { presignedUrl, objectKey } = slot.json() as { presignedUrl: string; objectKey: string }
    const put = (body: Buffer) =>
      fetch(presignedUrl, { method: 'PUT', headers: { 'content-type': 'image/png' }, body })
    expect((await put(checked)).status).toBe(200)
    expect((await complete(userId, objectKey)).statusCode).toBe(200)

    // The address still works for its lifetime, but what it writes is never published.
    expect((await put(swapped)).status).toBe(200)
    expect((await complete(userId, objectKey)).statusCode).toBe(200)
    await publishPost('post.created', userId, objectKey)
    const servedColour = async () => {
      const served = await fetch(publicUrl(media.config, objectKey))
      const { dominant } = await sharp(Buffer.from(await served.arrayBuffer())).stats()
      return dominant
    }
    await waitFor(
      async () =>
        (await media.app.mongo.db.collection('uploads').findOne({ _id: objectKey as never }))
          ?.attachedAt != null,
      {
        timeoutMs: 60_000,
        what: 'the picture attached',
      },
    )
    const colour = await servedColour()
    expect(colour.g).toBeGreaterThan(150)
    expect(colour.r).toBeLessThan(50)
  })

  it('fifty completes of one key at once decode it once and make its sizes once', async () => {
    const userId = hexId()
    const key = await uploaded(userId, await photo(3000, 2000), 'image/jpeg')
    const writes = jest.spyOn(media.app.storage, 'putVariant')
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => complete(userId, key)))
      const statuses = answers.map((answer) => answer.statusCode)
      // The per-user budget (UPLOAD_COMPLETES_PER_MINUTE) answers the rest 429.
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0)
      for (const answer of answers.filter((a) => a.statusCode === 200)) {
        expect(answer.json()).toEqual({
          objectKey: key,
          width: 3000,
          height: 2000,
          variants: allVariantKeys(key),
        })
      }
      // The original and each size written exactly once.
      const written = writes.mock.calls.map(([file]) => file.key).sort()
      expect(written).toEqual([key, ...allVariantKeys(key)].sort())
    } finally {
      writes.mockRestore()
    }
  })
})
