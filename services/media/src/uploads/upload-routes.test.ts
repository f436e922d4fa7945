import { randomUUID } from 'node:crypto'
import { Messages } from '@marketplace/contracts/validation'
import { PICTURE_MAX_BYTES } from '@marketplace/contracts/marketplace'
import { signTestToken, testKeyPair } from '@marketplace/service-kit/testing'
import { startMediaTestApp } from '../test/media-test-app'

// The two upload routes through the app as server.ts builds it, with the real MinIO behind.
describe('upload routes', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>
  const userId = randomUUID().replace(/-/g, '').slice(0, 24)

  beforeAll(async () => {
    media = await startMediaTestApp('routes')
  })

  afterAll(async () => {
    await media.close()
  })

  const ask = (url: string, body: unknown, token: string | null = media.tokenFor(userId)) =>
    media.app.inject({
      method: 'POST',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    })
  const postPicture = (body: unknown, token?: string | null) => ask('/api/upload', body, token)
  const profilePicture = (body: unknown, token?: string | null) =>
    ask('/api/upload/user-profile-picture', body, token)
  const png = { fileName: 'cat.png', fileType: 'image/png', fileSize: 1234 }

  describe('who may ask', () => {
    it.each([
      ['/api/upload', 'post'],
      ['/api/upload/user-profile-picture', 'profile'],
    ])('%s without an access token gets 401', async (url) => {
      const response = await ask(url, png, null)
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHORIZED' })
    })

    it('a token signed by another key gets 401', async () => {
      const now = Math.floor(Date.now() / 1000)
      const forged = signTestToken(testKeyPair().privateKey, {
        sub: userId,
        roles: ['2000'],
        iss: media.config.JWT_ISSUER,
        aud: media.config.JWT_AUDIENCE,
        iat: now,
        exp: now + 900,
      })
      expect((await postPicture(png, forged)).statusCode).toBe(401)
    })
  })

  describe('post pictures', () => {
    it.each(['image/jpeg', 'image/jpg', 'image/png'])('accepts %s', async (fileType) => {
      const response = await postPicture({ ...png, fileType })
      expect(response.statusCode).toBe(200)
    })

    it.each(['image/gif', 'image/webp', 'image/svg+xml', 'text/html', ''])(
      'refuses %p with the product text',
      async (fileType) => {
        const response = await postPicture({ ...png, fileType })
        expect(response.statusCode).toBe(400)
        expect(response.json()).toEqual({
          message: 'Error: Only .png, .jpg, and .jpeg formats allowed!',
          code: 'INVALID_FILE_TYPE',
        })
      },
    )

    it('accepts exactly 5 MB and refuses one byte more', async () => {
      expect((await postPicture({ ...png, fileSize: PICTURE_MAX_BYTES })).statusCode).toBe(200)
      const response = await postPicture({ ...png, fileSize: PICTURE_MAX_BYTES + 1 })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({
        message: 'Error: File size exceeds 5MB limit',
        code: 'FILE_TOO_LARGE',
      })
    })
  })

  describe('profile pictures', () => {
    it.each(['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/gif'])(
      'accepts %s',
      async (fileType) => {
        expect((await profilePicture({ ...png, fileType })).statusCode).toBe(200)
      },
    )

    it.each(['image/svg+xml', 'image/tiff', 'text/html'])('refuses %p', async (fileType) => {
      const response = await profilePicture({ ...png, fileType })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({
        message: Messages.upload.invalidProfileType,
        code: 'INVALID_FILE_TYPE',
      })
    })

    it('refuses more than 5 MB', async () => {
      const response = await profilePicture({ ...png, fileSize: PICTURE_MAX_BYTES + 1 })
      expect(response.statusCode).toBe(400)
      expect(response.json().message).toBe('Error: File size exceeds 5MB limit')
    })
  })

  describe('a request that names no file', () => {
    it.each([
      ['no fileType', { fileName: 'cat.png', fileSize: 10 }],
      ['no fileSize', { fileName: 'cat.png', fileType: 'image/png' }],
      ['no fileName', { fileType: 'image/png', fileSize: 10 }],
      ['an empty object', {}],
    ])('with %s gets "Please select a file first!"', async (_case, body) => {
      for (const send of [postPicture, profilePicture]) {
        const response = await send(body)
        expect(response.statusCode).toBe(400)
        expect(response.json()).toEqual({ message: 'Please select a file first!', code: 'NO_FILE' })
      }
    })

    it('with no body at all gets the same answer', async () => {
      const response = await postPicture(undefined)
      expect(response.statusCode).toBe(400)
      expect(response.json().message).toBe(Messages.upload.noFile)
    })

    it('a negative size is a malformed request, not a missing file', async () => {
      const response = await postPicture({ ...png, fileSize: -1 })
      expect(response.statusCode).toBe(400)
      expect(response.json().code).toBe('VALIDATION_FAILED')
    })
  })

  describe('the slot', () => {
    it('puts post pictures under jobImages/{caller}/ with an extension from the type, not the name', async () => {
      const response = await postPicture({
        fileName: 'cat.gif.html',
        fileType: 'image/jpeg',
        fileSize: 10,
      })
      const { objectKey, presignedUrl } = response.json()
      expect(objectKey).toMatch(
        new RegExp(
          `^jobImages/${userId}/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.jpg$`,
        ),
      )
      // The PUT lands in staging, outside the public prefixes; completion publishes objectKey.
      expect(new URL(presignedUrl).pathname).toBe(`/${media.config.S3_BUCKET}/staging/${objectKey}`)
    })

    it('puts profile pictures under userImages/{caller}/', async () => {
      const response = await profilePicture({
        fileName: 'me',
        fileType: 'image/webp',
        fileSize: 10,
      })
      expect(response.json().objectKey).toMatch(
        new RegExp(`^userImages/${userId}/[0-9a-f-]{36}\\.webp$`),
      )
    })

    it('takes the owner from the token, never from the body', async () => {
      const response = await postPicture({ ...png, userId: 'someone-else', userID: 'someone-else' })
      expect(response.json().objectKey.startsWith(`jobImages/${userId}/`)).toBe(true)
    })

    it('gives every request a new key', async () => {
      const first = (await postPicture(png)).json().objectKey
      const second = (await postPicture(png)).json().objectKey
      expect(first).not.toBe(second)
    })

    it('is a 5-minute address that signs the type and the size, and no header a plain client is not told about', async () => {
      const url = new URL((await postPicture(png)).json().presignedUrl)
      expect(url.origin).toBe(media.config.S3_PUBLIC_URL)
      expect(url.searchParams.get('X-Amz-Expires')).toBe('300')
      // A plain client sends Content-Type (and the body's length) and nothing else.
      expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';').sort()).toEqual([
        'content-length',
        'content-type',
        'host',
      ])
      // No checksum of an empty body (SDK default), which S3 would hold the real file to.
      expect([...url.searchParams.keys()].some((key) => key.includes('checksum'))).toBe(false)
    })
  })
})

describe('upload routes with a public S3 address other than the internal one', () => {
  it('signs for the host the browser reaches', async () => {
    const media = await startMediaTestApp('public-host', {
      S3_PUBLIC_URL: 'http://localhost:9000',
      UPLOAD_URL_TTL_SECONDS: '60',
    })
    try {
      const response = await media.app.inject({
        method: 'POST',
        url: '/api/upload',
        headers: { authorization: `Bearer ${media.tokenFor('u1')}` },
        payload: { fileName: 'a.png', fileType: 'image/png', fileSize: 1 },
      })
      const url = new URL(response.json().presignedUrl)
      expect(url.origin).toBe('http://localhost:9000')
      expect(url.searchParams.get('X-Amz-Expires')).toBe('60')
    } finally {
      await media.close()
    }
  })
})
