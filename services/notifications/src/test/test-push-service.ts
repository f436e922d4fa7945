import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decrypt } from 'http_ece'

/** A browser's subscription, as PushSubscription.toJSON() sends it. */
export interface TestSubscriptionJson {
  endpoint: string
  expirationTime: null
  keys: { p256dh: string; auth: string }
}

/** One browser of the test: its subscription, and what reached it, decrypted. */
export interface TestDevice {
  subscription: TestSubscriptionJson
  /** Every payload delivered, parsed from JSON, in arrival order. */
  received: unknown[]
  /** Requests the push service got for this device (delivered or answered "gone"). */
  requests: number
  /** From now on the push service answers 410 Gone (the browser unsubscribed). */
  markGone(): void
}

/**
 * A push service on the loopback address that speaks RFC 8030 enough for our sender: it
 * checks the VAPID authorization (RFC 8292: ES256 JWT signed by the key in `k`, audience the
 * push service's origin), decrypts the aes128gcm payload (RFC 8291) with the device's private
 * key and authentication secret, and answers 201; or 410 for a device marked gone.
 */
export async function startTestPushService() {
  const devices = new Map<string, TestDevice & { receive(body: Buffer): void; gone: boolean }>()
  const problems: string[] = []
  const signers = new Set<string>()

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1]
      const device = id ? devices.get(id) : undefined
      if (request.method !== 'POST' || !device) {
        response.writeHead(404).end()
        return
      }
      device.requests += 1
      if (device.gone) {
        response.writeHead(410).end()
        return
      }
      try {
        signers.add(checkPushRequest(request, origin))
        device.receive(Buffer.concat(chunks))
        response.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end()
      } catch (error) {
        problems.push((error as Error).message)
        response.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  /** A new browser: its own P-256 key pair and authentication secret. */
  function newDevice(): TestDevice {
    const id = randomUUID()
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const authSecret = randomBytes(16).toString('base64url')
    const device = {
      subscription: {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret },
      },
      received: [] as unknown[],
      requests: 0,
      gone: false,
      markGone() {
        device.gone = true
      },
      receive(body: Buffer) {
        const plain = decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret })
        device.received.push(JSON.parse(plain.toString('utf8')))
      },
    }
    devices.set(id, device)
    return device
  }

  return {
    origin,
    newDevice,
    /** Requests refused as malformed (a wrong signature, an undecryptable body). */
    problems,
    /** The VAPID public keys that signed the pushes received. */
    signers,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type TestPushService = Awaited<ReturnType<typeof startTestPushService>>

/** RFC 8030 headers, RFC 8291 content coding and a valid RFC 8292 VAPID signature. */
function checkPushRequest(request: IncomingMessage, origin: string): string {
  if (request.headers['content-encoding'] !== 'aes128gcm') {
    throw new Error(`content-encoding ${request.headers['content-encoding']}`)
  }
  if (!/^\d+$/.test(String(request.headers.ttl ?? ''))) throw new Error('no TTL header')
  const match = /^vapid t=([^,]+), k=(\S+)$/.exec(request.headers.authorization ?? '')
  if (!match) throw new Error(`authorization ${request.headers.authorization}`)
  const [, jwt = '', publicKey = ''] = match
  const [header = '', payload = '', signature = ''] = jwt.split('.')
  const point = Buffer.from(publicKey, 'base64url')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  })
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!signed) throw new Error('VAPID signature does not verify')
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    aud?: string
    exp?: number
    sub?: string
  }
  if (claims.aud !== origin) throw new Error(`VAPID audience ${claims.aud}`)
  if (!claims.sub || !claims.exp || claims.exp * 1000 < Date.now()) {
    throw new Error('VAPID claims incomplete or expired')
  }
  return publicKey
}
