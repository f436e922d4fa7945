import sharp from 'sharp'
import { setTimeout as sleep } from 'node:timers/promises'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { UPLOAD_CACHE_CONTROL } from '@marketplace/contracts/validation'
import { createPutSigner } from '../storage/put-signer'
import { createS3Client } from '../storage/s3-client'
import { APP_ORIGIN, pngBytes, publicUrl, startMediaTestApp } from '../test/media-test-app'

// What a slot lets a browser do, end to end: the service signs, MinIO (infra/local) checks
// the signature for real, and anonymous reads go through the bucket policy.
describe('upload slots against real object storage', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>
  const userId = '6650f1c2a4b5c6d7e8f90123'
  const picture = pngBytes(3, 2)

  beforeAll(async () => {
    media = await startMediaTestApp('slots')
  })

  afterAll(async () => {
    await media.close()
  })

  async function slot(url: string, fileType: string, fileSize: number) {
    const response = await media.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { fileName: 'picture.png', fileType, fileSize },
    })
    expect(response.statusCode).toBe(200)
    return response.json() as { presignedUrl: string; objectKey: string }
  }

  const complete = (objectKey: string) =>
    media.app.inject({
      method: 'POST',
      url: '/api/upload/complete',
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { objectKey },
    })

  /** The web app's PUT (content type, content length, cache control of one year). */
  const put = (presignedUrl: string, body: Buffer, headers: Record<string, string> = {}) =>
    fetch(presignedUrl, {
      method: 'PUT',
      body,
      headers: { 'content-type': 'image/png', 'cache-control': UPLOAD_CACHE_CONTROL, ...headers },
    })

  it.each([
    ['/api/upload', 'jobImages'],
    ['/api/upload/user-profile-picture', 'userImages'],
  ])(
    'a picture PUT to a slot of %s is readable by anyone once checked, not before',
    async (url, prefix) => {
      const { presignedUrl, objectKey } = await slot(url, 'image/png', picture.length)
      expect(objectKey.startsWith(`${prefix}/${userId}/`)).toBe(true)

      const upload = await put(presignedUrl, picture)
      expect(upload.status).toBe(200)
      // The bytes as sent wait in staging, which nobody can read.
      expect((await fetch(publicUrl(media.config, objectKey))).status).toBe(404)
      expect((await fetch(publicUrl(media.config, `staging/${objectKey}`))).status).toBe(403)

      expect((await complete(objectKey)).statusCode).toBe(200)
      const read = await fetch(publicUrl(media.config, objectKey))
      expect(read.status).toBe(200)
      expect(read.headers.get('content-type')).toBe('image/png')
      expect(read.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(await sharp(Buffer.from(await read.arrayBuffer())).metadata()).toMatchObject({
        format: 'png',
        width: 3,
        height: 2,
      })
    },
  )

  it('the plain flow: a PUT with only Content-Type stores the picture, then anyone reads it', async () => {
    const answer = await fetch(`${await media.listen()}/api/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${media.tokenFor(userId)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        fileName: 'sofa.png',
        fileType: 'image/png',
        fileSize: picture.length,
      }),
    })
    expect(answer.status).toBe(200)
    const { presignedUrl, objectKey } = (await answer.json()) as Record<string, string>

    const upload = await fetch(presignedUrl!, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: picture,
    })
    expect(upload.status).toBe(200)

    // Checked (by complete here; by the post naming it for a client that never calls it).
    expect((await complete(objectKey!)).statusCode).toBe(200)
    const read = await fetch(publicUrl(media.config, objectKey!))
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toBe('image/png')
    // The browser reads pictures straight from the bucket: no content sniffing there.
    expect(read.headers.get('x-content-type-options')).toBe('nosniff')
    expect((await sharp(Buffer.from(await read.arrayBuffer())).metadata()).format).toBe('png')
  })

  it('a plain PUT of another type, or of a larger body, is still refused', async () => {
    const { presignedUrl, objectKey } = await slot('/api/upload', 'image/png', picture.length)
    const plain = (body: Buffer, type: string) =>
      fetch(presignedUrl, { method: 'PUT', headers: { 'content-type': type }, body })
    const otherType = await plain(picture, 'text/html')
    expect(otherType.status).toBe(403)
    expect(await otherType.text()).toContain('SignatureDoesNotMatch')
    expect((await plain(Buffer.concat([picture, Buffer.alloc(1024)]), 'image/png')).status).toBe(
      403,
    )
    expect((await fetch(publicUrl(media.config, objectKey))).status).not.toBe(200)
  })

  it('storage refuses a body of another content type than the one signed', async () => {
    const { presignedUrl, objectKey } = await slot('/api/upload', 'image/png', picture.length)
    const upload = await put(presignedUrl, picture, { 'content-type': 'text/html' })
    expect(upload.status).toBe(403)
    expect(await upload.text()).toContain('SignatureDoesNotMatch')
    expect((await fetch(publicUrl(media.config, objectKey))).status).not.toBe(200)
  })

  it('storage refuses a body of another size than the one signed', async () => {
    const { presignedUrl, objectKey } = await slot('/api/upload', 'image/png', picture.length)
    const bigger = Buffer.concat([picture, Buffer.alloc(1024)])
    const upload = await put(presignedUrl, bigger)
    expect(upload.status).toBe(403)
    expect((await fetch(publicUrl(media.config, objectKey))).status).not.toBe(200)
  })

  it("a PUT's own Cache-Control is not part of the signature: the web app's client, sending one, is accepted too", async () => {
    // The served policy is the service's, set when the picture is attached (attachments.test.ts).
    const { presignedUrl } = await slot('/api/upload', 'image/png', picture.length)
    const upload = await put(presignedUrl, picture, { 'cache-control': 'no-store' })
    expect(upload.status).toBe(200)
  })

  it('a slot signed for another key cannot be pointed elsewhere', async () => {
    const { presignedUrl } = await slot('/api/upload', 'image/png', picture.length)
    const moved = presignedUrl.replace(`/jobImages/${userId}/`, '/jobImages/another-user/')
    expect((await put(moved, picture)).status).toBe(403)
  })

  it('storage refuses an address after it expires', async () => {
    const client = createS3Client({
      endpoint: media.config.S3_PUBLIC_URL,
      region: media.config.S3_REGION,
      accessKeyId: media.config.S3_ACCESS_KEY,
      secretAccessKey: media.config.S3_SECRET_KEY,
      forcePathStyle: true,
    })
    const sign = createPutSigner(client, { bucket: media.config.S3_BUCKET, expiresInSeconds: 1 })
    const address = await sign({
      key: `jobImages/${userId}/expiring.png`,
      contentType: 'image/png',
      contentLength: picture.length,
    })
    await sleep(2100)
    const upload = await put(address, picture)
    expect(upload.status).toBe(403)
    expect(await upload.text()).toContain('expired')
    client.destroy()
  })

  it('an object outside jobImages/ and userImages/ is not publicly readable', async () => {
    await media.admin.send(
      new PutObjectCommand({
        Bucket: media.config.S3_BUCKET,
        Key: 'private/report.png',
        Body: picture,
        ContentType: 'image/png',
      }),
    )
    expect((await fetch(publicUrl(media.config, 'private/report.png'))).status).toBe(403)
    // Nor is the prefix name enough: "jobImagesX/" is outside "jobImages/".
    await media.admin.send(
      new PutObjectCommand({
        Bucket: media.config.S3_BUCKET,
        Key: 'jobImagesX/a.png',
        Body: picture,
      }),
    )
    expect((await fetch(publicUrl(media.config, 'jobImagesX/a.png'))).status).toBe(403)
  })

  it('nobody can list the pictures', async () => {
    const base = `${media.config.S3_PUBLIC_URL}/${media.config.S3_BUCKET}`
    expect((await fetch(`${base}/`)).status).toBe(403)
    expect((await fetch(`${base}?list-type=2&prefix=jobImages/`)).status).toBe(403)
  })

  it('the browser preflight for the PUT from the app origin is allowed', async () => {
    const { presignedUrl } = await slot('/api/upload', 'image/png', picture.length)
    const preflight = await fetch(presignedUrl, {
      method: 'OPTIONS',
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,cache-control',
      },
    })
    expect(preflight.status).toBeLessThan(300)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT')
    const allowed = preflight.headers.get('access-control-allow-headers')?.toLowerCase() ?? ''
    expect(allowed).toContain('content-type')
    expect(allowed).toContain('cache-control')
  })
})
