import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { SUPPORT_MESSAGE_MAX_LENGTH } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
import {
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

interface Mail {
  ID: string
  Subject: string
}

describe('support and contact messages (real SMTP server)', () => {
  let app: NotificationsTestApp
  const inbox = `support-${randomBytes(5).toString('hex')}@example.test`

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_support', {
      SUPPORT_INBOX: inbox,
      SUPPORT_RATE_LIMIT_MAX: '4',
    })
  })

  afterAll(async () => {
    await app?.stop()
  })

  it('delivers a message to the support inbox with reply-to the sender, then limits the rate', async () => {
    const guest = app.clientFor(null)
    const empty = await guest.post('/api/email/send-email', {
      email: 'ann@example.test',
      message: '  ',
    })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe(Messages.support.messageRequired)
    const noEmail = await guest.post('/api/email/send-email', { email: 'nope', message: 'Help' })
    expect(noEmail.status).toBe(400)
    expect(noEmail.body.message).toBe(Messages.support.invalidEmail)

    const sent = await guest.post('/api/email/send-email', {
      email: 'Ann@Example.test',
      message: 'I cannot upload my <picture>.',
    })
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({ message: Messages.support.sent })
    const mailApi = infraEnv().mailApiUrl
    const [mail] = await waitFor(
      async () => {
        const answer = await fetch(
          `${mailApi}/api/v1/search?query=${encodeURIComponent(`to:${inbox}`)}`,
        )
        const { messages } = (await answer.json()) as { messages: Mail[] }
        return messages.length > 0 && messages
      },
      { timeoutMs: 15_000, what: 'the support mail' },
    )
    const full = (await (await fetch(`${mailApi}/api/v1/message/${mail!.ID}`)).json()) as {
      Text: string
      ReplyTo: Array<{ Address: string }>
    }
    expect(full.ReplyTo.map((r) => r.Address)).toEqual(['ann@example.test'])
    expect(full.Text).toContain('I cannot upload my <picture>.')

    // Four requests a window (configured here), refused ones included; the fifth gets a 429.
    const tooLong = await guest.post('/api/email/send-email', {
      email: 'ann@example.test',
      message: 'x'.repeat(SUPPORT_MESSAGE_MAX_LENGTH + 1),
    })
    expect(tooLong.status).toBe(400)
    const limited = await guest.post('/api/email/send-email', {
      email: 'ann@example.test',
      message: 'Again',
    })
    expect(limited.status).toBe(429)
    expect(limited.body.message).toMatch(/^You have sent several messages in a short time/)
  })
})

/**
 * POST /api/email/send-email over real HTTP from a chosen local address: 127.0.0.1 stands for
 * the gateway (the only TRUST_PROXY entry), any other loopback address for a peer that is not.
 */
function sendFrom(
  baseUrl: string,
  peer: { localAddress: string; forwardedFor?: string },
): Promise<{ status: number; retryAfter?: string; message?: string }> {
  const body = JSON.stringify({ email: 'visitor@example.test', message: 'Hello there' })
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/api/email/send-email`,
      {
        method: 'POST',
        localAddress: peer.localAddress,
        headers: {
          'content-type': 'application/json',
          ...(peer.forwardedFor ? { 'x-forwarded-for': peer.forwardedFor } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'] as string | undefined,
            message: text ? (JSON.parse(text) as { message?: string }).message : undefined,
          })
        })
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

describe('the support form budget is per client address, on every instance', () => {
  let app: NotificationsTestApp
  let replicaUrl: string
  const GATEWAY = '127.0.0.1'
  const viaGateway = (client: string) => ({ localAddress: GATEWAY, forwardedFor: client })
  const statuses = async (count: number, send: () => ReturnType<typeof sendFrom>) => {
    const seen: number[] = []
    for (let i = 0; i < count; i += 1) seen.push((await send()).status)
    return seen
  }

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_support_budget', {
      SUPPORT_INBOX: `support-${randomBytes(5).toString('hex')}@example.test`,
      SUPPORT_RATE_LIMIT_MAX: '5',
      TRUST_PROXY: GATEWAY,
    })
    replicaUrl = (await app.startReplica()).baseUrl
  })

  afterAll(async () => {
    await app?.stop()
  })

  it('two clients behind the gateway each get their own five messages', async () => {
    const ann = viaGateway('203.0.113.10')
    const bob = viaGateway('203.0.113.20')
    expect(await statuses(5, () => sendFrom(app.baseUrl, ann))).toEqual([200, 200, 200, 200, 200])
    const sixth = await sendFrom(app.baseUrl, ann)
    expect(sixth.status).toBe(429)
    expect(Number(sixth.retryAfter)).toBeGreaterThan(0)
    expect(sixth.message).toMatch(/^You have sent several messages in a short time/)
    // Ann's five do not close the form for Bob, who comes through the same gateway.
    expect(await statuses(5, () => sendFrom(app.baseUrl, bob))).toEqual([200, 200, 200, 200, 200])
    expect((await sendFrom(app.baseUrl, bob)).status).toBe(429)
  })

  it('the budget is shared by the instances: five in all, wherever they land', async () => {
    const dan = viaGateway('203.0.113.40')
    expect(await statuses(3, () => sendFrom(app.baseUrl, dan))).toEqual([200, 200, 200])
    expect(await statuses(3, () => sendFrom(replicaUrl, dan))).toEqual([200, 200, 429])
  })

  it('a client that writes its own X-Forwarded-For cannot escape its budget', async () => {
    // Straight to the service from an address that is not the gateway's: the header is
    // ignored, whatever it claims, and every message counts against the peer itself.
    let claimed = 0
    const spoofed = () =>
      sendFrom(app.baseUrl, {
        localAddress: '127.0.0.2',
        forwardedFor: `198.51.100.${(claimed += 1)}`,
      })
    expect(await statuses(6, spoofed)).toEqual([200, 200, 200, 200, 200, 429])
  })
})
