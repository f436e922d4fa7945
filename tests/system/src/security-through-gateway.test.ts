import { appendFileSync, mkdirSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import sharp from 'sharp'
import { io, type Socket } from 'socket.io-client'
import { allVariantKeys } from '@marketplace/contracts/marketplace'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
import { freePort, siteClient } from './processes'
import { startFullStack, type FullStack } from './web/full-stack'

// The second security pass, driven as a plain client of the site (no browser, no insider
// knowledge beyond what the site hands out): metrics and health stay off the public port and
// off the Socket.IO route, logout ends an access token everywhere at once, and a phone
// photo's GPS position is on no public address of the picture. Every request and answer is
// written to .data/logs/system-tests/security-transcript.txt (docs/security.md quotes it).
const transcript = join(__dirname, '..', '..', '..', '.data', 'logs', 'system-tests')
mkdirSync(transcript, { recursive: true })
const note = (line: string) =>
  appendFileSync(
    join(transcript, 'security-transcript.txt'),
    `${new Date().toISOString()} ${line}\n`,
  )

/** A GET with the path sent exactly as written (fetch would resolve `%2e%2e` itself). */
function rawGet(site: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(site)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      )
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

describe('security through the gateway, as a plain client', () => {
  let stack: FullStack
  let metricsPort: number
  let api: ReturnType<typeof siteClient>

  beforeAll(async () => {
    metricsPort = await freePort()
    stack = await startFullStack('security', { gatewayEnv: { METRICS_PORT: String(metricsPort) } })
    api = siteClient(stack.site)
    note(`--- stack at ${stack.site}`)
  }, 180_000)

  afterAll(async () => {
    await stack?.stop()
  }, 60_000)

  it('serves no metrics or health of a service through the public port or the Socket.IO route', async () => {
    for (const path of ['/metrics', '/socket.io/%2e%2e/metrics', '/socket.io/%2e%2e/healthz']) {
      const answer = await rawGet(stack.site, path)
      note(`GET ${path} -> ${answer.status} ${answer.body.slice(0, 80).replace(/\s+/g, ' ')}`)
      expect({ path, prometheus: answer.body.includes('# HELP') }).toEqual({
        path,
        prometheus: false,
      })
      expect({ path, health: /"status":"(ok|degraded)"/.test(answer.body) }).toEqual({
        path,
        health: false,
      })
    }
    expect((await rawGet(stack.site, '/socket.io/%2e%2e/metrics')).status).toBe(400)
    // Prometheus still scrapes the gateway, on its own port.
    const scrape = await rawGet(`http://127.0.0.1:${metricsPort}`, '/metrics')
    expect(scrape.status).toBe(200)
    expect(scrape.body).toContain('# HELP')
  })

  it('after GET /logout the access token is refused within a second, on every service and the socket', async () => {
    const person = await api.member('Lou', 'Gout')
    const login = await fetch(`${stack.site}/api/auth/direct-login`, {
      method: 'POST',
      headers: { origin: stack.site, 'content-type': 'application/json' },
      body: JSON.stringify({ email: person.email, password: person.password }),
    })
    const { accessToken: token } = (await login.json()) as { accessToken: string }
    const cookies = login.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; ')
    const socket: Socket = io(stack.site, {
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
      forceNew: true,
    })
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve)
        socket.once('connect_error', reject)
      })
      const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve))
      const reads = {
        people: `/api/users/${person.userId}`,
        auth: '/api/auth/two-step',
        notifications: '/api/notifications',
      }
      for (const [service, path] of Object.entries(reads)) {
        const before = await api.call('GET', path, token)
        note(`before logout: GET ${path} (${service}) with the token -> ${before.status}`)
        expect({ service, status: before.status }).toEqual({ service, status: 200 })
      }

      const loggedOut = await fetch(`${stack.site}/logout`, { headers: { cookie: cookies } })
      expect(loggedOut.status).toBe(204)
      const at = Date.now()
      note(`GET /logout -> ${loggedOut.status}`)

      for (const [service, path] of Object.entries(reads)) {
        await waitFor(async () => (await api.call('GET', path, token)).status === 401, {
          timeoutMs: 5_000,
          intervalMs: 50,
          what: `${service} refusing the old token`,
        })
        const elapsed = Date.now() - at
        note(`after logout: GET ${path} (${service}) with the old token -> 401 after ${elapsed} ms`)
        expect({ service, withinASecond: elapsed <= 1_000 }).toEqual({
          service,
          withinASecond: true,
        })
      }
      const reason = await Promise.race([
        disconnected,
        new Promise<string>((resolve) => setTimeout(() => resolve('still connected'), 2_000)),
      ])
      note(`the socket opened with the token: ${reason} after ${Date.now() - at} ms`)
      expect(reason).not.toBe('still connected')
    } finally {
      socket.close()
    }
  })

  it('a phone photo attached to a post with a hidden location shows its GPS position nowhere', async () => {
    const person = await api.member('Gia', 'Pics')
    const photo = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: { r: 120, g: 80, b: 40 } },
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
      .toBuffer()
    const slot = await api.call('POST', '/api/upload', person.token, {
      fileName: 'IMG_0001.jpg',
      fileType: 'image/jpeg',
      fileSize: photo.length,
    })
    expect(slot.status).toBe(200)
    const { presignedUrl, objectKey } = slot.body as { presignedUrl: string; objectKey: string }
    const put = await fetch(presignedUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: photo,
    })
    expect(put.status).toBe(200)
    const bucket = `${infraEnv().s3Endpoint}/${new URL(presignedUrl).pathname.split('/')[1]}`
    const before = await fetch(`${bucket}/${objectKey}`)
    note(`after the PUT, before any check: GET <bucket>/${objectKey} -> ${before.status}`)
    expect(before.status).toBe(404)

    const completed = await api.call('POST', '/api/upload/complete', person.token, { objectKey })
    expect(completed.status).toBe(200)
    for (const key of [objectKey, ...allVariantKeys(objectKey)]) {
      const served = await fetch(`${bucket}/${key}`)
      const body = Buffer.from(await served.arrayBuffer())
      const metadata = await sharp(body).metadata()
      note(`GET <bucket>/${key} -> ${served.status}, EXIF ${metadata.exif ? 'present' : 'none'}`)
      expect({ key, status: served.status, exif: metadata.exif }).toEqual({
        key,
        status: 200,
        exif: undefined,
      })
      expect(body.includes(Buffer.from('PhoneMaker'))).toBe(false)
    }
  })
})
