import http, { type IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { closeServer, listen, startGateway, type RunningGateway } from '../test/helpers'

const BIG_JSON = JSON.stringify({
  jobs: Array.from({ length: 40 }, (_, i) => ({ _id: `job-${i}`, title: `Paint fence ${i}` })),
})
const SMALL_JSON = JSON.stringify({ ok: true })
const POLLING_PAYLOAD = `0{"pings":${JSON.stringify('x'.repeat(4000))}}`

interface BinaryResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** node:http, so the test chooses Accept-Encoding and sees the bytes as they travel. */
function get(url: string, acceptEncoding?: string): Promise<BinaryResponse> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : undefined
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        )
      })
      .on('error', reject)
  })
}

describe('compression of answers through the gateway', () => {
  let upstream: http.Server
  let gateway: RunningGateway
  let endEvents: () => void = () => {}

  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      const url = request.url ?? ''
      if (url.startsWith('/api/jobs/events')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.write(`data: ${'first '.repeat(300)}\n\n`)
        endEvents = () => response.end('data: last\n\n')
        return
      }
      const [type, body] = url.startsWith('/socket.io')
        ? ['text/plain; charset=UTF-8', POLLING_PAYLOAD]
        : ['application/json; charset=utf-8', url.endsWith('/small') ? SMALL_JSON : BIG_JSON]
      response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
      response.end(body)
    })
    const url = await listen(upstream)
    gateway = await startGateway({ JOBS_URL: url, NOTIFICATIONS_URL: url })
  })

  afterAll(async () => {
    endEvents()
    await gateway?.app.close()
    await closeServer(upstream)
  })

  it('a proxied JSON answer above 1 KB comes in brotli when the browser accepts it, gzip otherwise', async () => {
    const brotli = await get(`${gateway.url}/api/jobs/big`, 'gzip, deflate, br')
    const gzip = await get(`${gateway.url}/api/jobs/big`, 'gzip')

    expect(brotli.status).toBe(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers.vary).toMatch(/accept-encoding/i)
    expect(brotli.body.length).toBeLessThan(Buffer.byteLength(BIG_JSON) / 2)
    expect(brotliDecompressSync(brotli.body).toString()).toBe(BIG_JSON)
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body).toString()).toBe(BIG_JSON)
  })

  it('a proxied answer is sent as it is to a client that accepts no encoding', async () => {
    const response = await get(`${gateway.url}/api/jobs/big`)

    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body.toString()).toBe(BIG_JSON)
  })

  it('a proxied answer under 1 KB is not compressed', async () => {
    const response = await get(`${gateway.url}/api/jobs/small`, 'br, gzip')

    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body.toString()).toBe(SMALL_JSON)
  })

  it('a server-sent event stream is relayed uncompressed, each event as it comes', async () => {
    const response = await fetch(`${gateway.url}/api/jobs/events`, {
      headers: { 'accept-encoding': 'br, gzip' },
    })
    const reader = response.body!.getReader()
    // The upstream holds the stream open: the first event must arrive before its end.
    const first = await reader.read()

    expect(response.headers.get('content-encoding')).toBeNull()
    expect(new TextDecoder().decode(first.value)).toMatch(/^data: first/)
    endEvents()
    await reader.cancel()
  })

  it("Socket.IO's long-polling answers pass unchanged, whatever their size", async () => {
    const response = await get(`${gateway.url}/socket.io/?EIO=4&transport=polling`, 'br, gzip')

    expect(response.status).toBe(200)
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body.toString()).toBe(POLLING_PAYLOAD)
  })
})
