import { randomBytes } from 'node:crypto'
import { startMediaTestApp } from './test/media-test-app'

// Fields a slot may carry by mistake (the storage's own names): set by a test, added to
// every slot the use case makes, and never sent when the schema holds.
let mockSlotLeak: Record<string, unknown> = {}
jest.mock('./uploads/upload-slot', () => {
  const actual = jest.requireActual<typeof import('./uploads/upload-slot')>('./uploads/upload-slot')
  return {
    ...actual,
    createUploadSlot: async (...args: Parameters<typeof actual.createUploadSlot>) => ({
      ...(await actual.createUploadSlot(...args)),
      ...mockSlotLeak,
    }),
  }
})

interface OpenApiOperation {
  tags?: string[]
  summary?: string
  security?: unknown[]
  requestBody?: { content?: Record<string, { schema?: { properties?: object } }> }
  responses: Record<string, { content?: Record<string, { schema?: { properties?: object } }> }>
}
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> }

/** Every public route of the service. */
const ROUTES = ['/api/upload', '/api/upload/user-profile-picture']

describe('the media API, described and guarded by its schemas', () => {
  let media: Awaited<ReturnType<typeof startMediaTestApp>>
  let document: OpenApiDocument
  const userId = randomBytes(12).toString('hex')

  beforeAll(async () => {
    media = await startMediaTestApp('openapi')
    const answer = await media.app.inject({ method: 'GET', url: '/openapi.json' })
    expect(answer.statusCode).toBe(200)
    document = answer.json()
  })

  afterAll(async () => {
    await media?.close()
  })

  afterEach(() => {
    mockSlotLeak = {}
  })

  it('documents both upload routes and the completion, and nothing else', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method} ${path}`),
    )
    expect(documented.sort()).toEqual(
      [...ROUTES, '/api/upload/complete'].map((path) => `post ${path}`).sort(),
    )
  })

  it('POST /api/upload/complete declares its body, its answer, its 400, 401 and 404', () => {
    const op = document.paths['/api/upload/complete']?.post
    const json = (status: string) => op?.responses[status]?.content?.['application/json']
    expect(op?.security).toEqual([{ bearerAuth: [] }])
    expect(
      Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
    ).toEqual(['objectKey'])
    expect(Object.keys(json('200')?.schema?.properties ?? {})).toEqual([
      'objectKey',
      'width',
      'height',
      'variants',
    ])
    for (const status of ['400', '401', '404']) expect(json(status)?.schema).toBeDefined()
  })

  it.each(ROUTES)(
    'POST %s declares its body, its slot, its 400 and 401, and asks for a bearer token',
    (path) => {
      const op = document.paths[path]?.post
      const json = (status: string) => op?.responses[status]?.content?.['application/json']
      expect(op?.tags).toEqual(['media'])
      expect(op?.summary).toEqual(expect.any(String))
      expect(op?.security).toEqual([{ bearerAuth: [] }])
      expect(
        Object.keys(op?.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
      ).toEqual(['fileName', 'fileType', 'fileSize'])
      for (const status of ['200', '400', '401']) expect(json(status)?.schema).toBeDefined()
    },
  )

  it('sends the address and the key only, even when the slot carries more', async () => {
    mockSlotLeak = { bucket: media.config.S3_BUCKET, accessKeyId: media.config.S3_ACCESS_KEY }

    const answer = await media.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { authorization: `Bearer ${media.tokenFor(userId)}` },
      payload: { fileName: 'sofa.png', fileType: 'image/png', fileSize: 1234 },
    })

    expect(answer.statusCode).toBe(200)
    expect(Object.keys(answer.json()).sort()).toEqual(['objectKey', 'presignedUrl'])
  })
})
