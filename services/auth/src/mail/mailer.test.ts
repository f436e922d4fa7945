import { randomBytes } from 'node:crypto'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { Type } from '@sinclair/typebox'
import { BaseConfigSchema, ConfigError, loadConfig } from '@marketplace/service-kit'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
import { MailConfigSchema, escapeHtml } from '@marketplace/service-kit/mail'
import { createMailer, type Mailer } from './mailer'
import {
  CODE_VALIDITY_MINUTES,
  PASSWORD_RESET_SUBJECT,
  VERIFICATION_SUBJECT,
  passwordResetMail,
  verificationMail,
} from './templates'

// The integration tests send through the real SMTP sink of infra/local and read the mails
// back through its Mailpit API.
const APP_URL = 'http://app.example.test:8080'

interface SinkAddress {
  Name: string
  Address: string
}
interface SinkMessage {
  ID: string
  From: SinkAddress
  To: SinkAddress[]
  Subject: string
  Text: string
  HTML: string
}

const uniqueAddress = (label: string) => `${label}-${randomBytes(6).toString('hex')}@example.test`

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${infraEnv().mailApiUrl}${path}`)
  if (!response.ok) throw new Error(`mail API answered ${response.status} for ${path}`)
  return (await response.json()) as T
}

/** The one mail that reached `address`, in full. */
async function theMailTo(address: string): Promise<SinkMessage> {
  const found = await waitFor(
    async () => {
      const query = encodeURIComponent(`to:${address}`)
      const { messages } = await getJson<{ messages: { ID: string }[] }>(
        `/api/v1/search?query=${query}`,
      )
      return messages.length > 0 && messages
    },
    { timeoutMs: 10_000, what: `a mail to ${address}` },
  )
  expect(found).toHaveLength(1)
  return getJson<SinkMessage>(`/api/v1/message/${found[0]!.ID}`)
}

function mailEnv(overrides: Record<string, string> = {}) {
  const { smtpHost, smtpPort } = infraEnv()
  return loadConfig(MailConfigSchema, {
    SMTP_HOST: smtpHost,
    SMTP_PORT: String(smtpPort),
    APP_PUBLIC_URL: APP_URL,
    ...overrides,
  })
}

function recordingLogger() {
  const lines: unknown[][] = []
  return {
    lines,
    info: (...args: unknown[]) => lines.push(['info', ...args]),
    error: (...args: unknown[]) => lines.push(['error', ...args]),
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

async function closedPort(): Promise<number> {
  const server = createServer()
  const port = await listen(server)
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('mail config', () => {
  it('defaults to the local SMTP sink without TLS or authentication', () => {
    expect(loadConfig(MailConfigSchema, {})).toEqual({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: 1025,
      SMTP_SECURE: false,
      MAIL_FROM: 'Marketplace <no-reply@marketplace.local>',
      APP_PUBLIC_URL: 'http://localhost:8080',
    })
  })

  it('turns environment strings into a port number and a boolean, composed like config.ts', () => {
    const schema = Type.Composite([BaseConfigSchema, MailConfigSchema])
    const config = loadConfig(schema, {
      SERVICE_NAME: 'auth',
      PORT: '4001',
      JWT_PUBLIC_KEY: 'key',
      SMTP_PORT: '465',
      SMTP_SECURE: 'true',
      SMTP_USER: 'mailer',
      SMTP_PASSWORD: 'secret',
      SMTP_HOST: 'smtp.example.test',
    })
    expect(config).toMatchObject({
      SMTP_HOST: 'smtp.example.test',
      SMTP_PORT: 465,
      SMTP_SECURE: true,
      SMTP_USER: 'mailer',
      SMTP_PASSWORD: 'secret',
    })
    expect(loadConfig(MailConfigSchema, { SMTP_SECURE: 'false' }).SMTP_SECURE).toBe(false)
  })

  it('an empty SMTP_USER means no authentication', () => {
    expect(loadConfig(MailConfigSchema, { SMTP_USER: '' })).not.toHaveProperty('SMTP_USER')
  })

  it('rejects a port or flag that is not one, naming the setting', () => {
    expect(() => loadConfig(MailConfigSchema, { SMTP_PORT: 'smtp' })).toThrow(ConfigError)
    expect(() => loadConfig(MailConfigSchema, { SMTP_SECURE: 'maybe' })).toThrow(/SMTP_SECURE/)
    expect(() => loadConfig(MailConfigSchema, { APP_PUBLIC_URL: 'localhost:8080' })).toThrow(
      /APP_PUBLIC_URL/,
    )
  })
})

describe('code mail templates', () => {
  const input = { firstName: 'Ann', code: '042317', appPublicUrl: 'https://market.example' }

  it('the verification mail gives the code, its validity and the verification page', () => {
    const mail = verificationMail(input)
    expect(mail.subject).toBe('Your Marketplace verification code')
    expect(VERIFICATION_SUBJECT).toBe(mail.subject)
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Hi Ann,')
      expect(body).toContain('042317')
      expect(body).toContain(`valid for ${CODE_VALIDITY_MINUTES} minutes and can be used once`)
      expect(body).toContain('https://market.example/verify')
    }
    expect(mail.html).toContain('href="https://market.example/verify"')
    expect(mail.text).not.toContain('ignore')
  })

  it('the password reset mail links the reset page and says an unasked mail can be ignored', () => {
    const mail = passwordResetMail(input)
    expect(mail.subject).toBe('Your Marketplace password reset code')
    expect(PASSWORD_RESET_SUBJECT).toBe(mail.subject)
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Hi Ann,')
      expect(body).toContain('042317')
      expect(body).toContain('valid for 15 minutes and can be used once')
      expect(body).toContain('https://market.example/forgot-password')
      expect(body).toMatch(/did not ask for .*ignore this mail.*password stays unchanged/)
    }
  })

  it('the code is the first 6-digit number of the text, so a reader finds it at once', () => {
    for (const mail of [verificationMail(input), passwordResetMail(input)]) {
      expect(mail.text.match(/\b\d{6}\b/)?.[0]).toBe('042317')
    }
  })

  it('a trailing slash of the public URL does not double the slash of the link', () => {
    const mail = verificationMail({ ...input, appPublicUrl: 'https://market.example/' })
    expect(mail.text).toContain('https://market.example/verify')
    expect(mail.text).not.toContain('example//')
  })

  it('escapes the first name in the HTML and keeps it as typed in the text', () => {
    const firstName = `<img src=x onerror="alert('x')">&Ann`
    for (const mail of [
      verificationMail({ ...input, firstName }),
      passwordResetMail({ ...input, firstName }),
    ]) {
      expect(mail.html).not.toContain('<img')
      expect(mail.html).toContain(
        'Hi &lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;Ann,',
      )
      expect(mail.text).toContain(`Hi ${firstName},`)
    }
  })

  it('escapeHtml replaces the five HTML-significant characters', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f')
  })
})

describe('mailer against the real SMTP sink', () => {
  let mailer: Mailer
  const logger = recordingLogger()

  beforeAll(() => {
    mailer = createMailer(mailEnv(), logger)
  })
  afterAll(() => mailer?.close())

  it('delivers the verification mail with the code, the link and an escaped first name', async () => {
    const to = uniqueAddress('verify')
    await mailer.sendVerificationCode({ to, firstName: '<b>Ann</b>', code: '123456' })

    const mail = await theMailTo(to)
    expect(mail.Subject).toBe('Your Marketplace verification code')
    expect(mail.To.map((a) => a.Address)).toEqual([to])
    expect(mail.From.Address).toBe('no-reply@marketplace.local')
    expect(mail.Text).toContain('123456')
    expect(mail.HTML).toContain('123456')
    expect(mail.Text).toContain(`${APP_URL}/verify`)
    expect(mail.HTML).toContain(`href="${APP_URL}/verify"`)
    expect(mail.HTML).toContain('&lt;b&gt;Ann&lt;/b&gt;')
    expect(mail.HTML).not.toContain('<b>Ann</b>')
    expect(mail.Text).toContain('Hi <b>Ann</b>,')
  })

  it('delivers the password reset mail with the code and the reset page', async () => {
    const to = uniqueAddress('reset')
    await mailer.sendPasswordResetCode({ to, firstName: 'Björn', code: '654321' })

    const mail = await theMailTo(to)
    expect(mail.Subject).toBe('Your Marketplace password reset code')
    expect(mail.To.map((a) => a.Address)).toEqual([to])
    expect(mail.Text).toContain('Hi Björn,')
    expect(mail.Text).toContain('654321')
    expect(mail.HTML).toContain('654321')
    expect(mail.Text).toContain(`${APP_URL}/forgot-password`)
    expect(mail.HTML).toContain(`href="${APP_URL}/forgot-password"`)
    expect(mail.Text).toContain('your password stays unchanged')
  })

  it('logs each sent mail without its code', () => {
    const sent = logger.lines.filter(([level]) => level === 'info')
    expect(sent).toHaveLength(2)
    expect(JSON.stringify(logger.lines)).not.toMatch(/123456|654321/)
  })

  it('is reachable', async () => {
    await expect(mailer.isReachable()).resolves.toBe(true)
  })
})

describe('mailer with a dead SMTP server', () => {
  const silentSockets: Socket[] = []
  // Accepts connections and never greets: the server that hangs rather than refuses.
  const silent = createServer((socket) => silentSockets.push(socket))
  let silentPort: number

  beforeAll(async () => {
    silentPort = await listen(silent)
  })
  afterAll(async () => {
    for (const socket of silentSockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
  })

  const send = (mailer: Mailer) =>
    mailer.sendVerificationCode({ to: uniqueAddress('dead'), firstName: 'Ann', code: '111111' })

  it('a closed port rejects quickly with an Error, logged, and is not reachable', async () => {
    const logger = recordingLogger()
    const mailer = createMailer(mailEnv({ SMTP_PORT: String(await closedPort()) }), logger)
    try {
      // Refused, not timed out: the outcome says it failed at once, with no clock involved.
      const error = await send(mailer).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as { code?: string }).code).not.toBe('ETIMEDOUT')
      expect(logger.lines.map(([level]) => level)).toEqual(['error'])
      await expect(mailer.isReachable()).resolves.toBe(false)
    } finally {
      mailer.close()
    }
  })

  it('a server that never greets fails within the timeouts instead of hanging', async () => {
    const mailer = createMailer(mailEnv({ SMTP_PORT: String(silentPort) }))
    try {
      // It settles at all (jest's own time limit is the ceiling), and says why: a time-out.
      const [error, reachable] = await Promise.all([
        send(mailer).catch((e: unknown) => e),
        mailer.isReachable(),
      ])
      expect(error).toBeInstanceOf(Error)
      expect((error as { code?: string }).code).toBe('ETIMEDOUT')
      expect(reachable).toBe(false)
    } finally {
      mailer.close()
    }
  })
})
