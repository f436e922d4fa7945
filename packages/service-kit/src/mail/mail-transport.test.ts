import { Registry } from 'prom-client'
import { createServer } from 'node:net'
import { infraEnv } from '../testing/infra-env'
import { createMailTransport } from './mail-transport'
import type { MailConfig } from './mail-config'

// Real SMTP: Mailpit from infra/local accepts the mail; a port nothing listens on refuses it.
const config = (port: number): MailConfig => ({
  SMTP_HOST: infraEnv().smtpHost,
  SMTP_PORT: port,
  SMTP_SECURE: false,
  MAIL_FROM: 'Marketplace <no-reply@marketplace.local>',
  APP_PUBLIC_URL: 'http://localhost:8080',
})

/** A port the OS just handed out and took back: nothing listens on it. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const countOf = async (registry: Registry, outcome: string) => {
  const metric = await registry.getSingleMetric('mail_messages_total')?.get()
  return metric?.values.find((value) => value.labels.outcome === outcome)?.value ?? 0
}

describe('mail_messages_total', () => {
  it('counts a mail the SMTP server took as sent and a refused one as failed', async () => {
    const registry = new Registry()
    const working = createMailTransport(config(infraEnv().smtpPort), { metrics: registry })
    const broken = createMailTransport(config(await freePort()), { metrics: registry })

    await working.sendMail({ to: 'counted@example.com', subject: 'Counted', text: 'Hello' })
    await expect(
      broken.sendMail({ to: 'counted@example.com', subject: 'Refused', text: 'Hello' }),
    ).rejects.toThrow()

    expect(await countOf(registry, 'sent')).toBe(1)
    expect(await countOf(registry, 'failed')).toBe(1)
    const text = await registry.metrics()
    expect(text).toContain('mail_messages_total{outcome="sent"} 1')
    expect(text).toContain('mail_messages_total{outcome="failed"} 1')
  })
})
