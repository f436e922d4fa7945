import { randomBytes } from 'node:crypto'
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
