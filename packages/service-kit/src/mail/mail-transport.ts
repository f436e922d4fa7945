import { createTransport } from 'nodemailer'
import { Counter, type Registry } from 'prom-client'
import { inSpan } from '../tracing/event-trace'
import type { MailConfig } from './mail-config'

// Nodemailer's defaults wait up to 2 minutes to connect and 10 minutes on a silent socket;
// a send blocks an event handler's retry, so a dead server has to fail within seconds.
const TIMEOUTS = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
  dnsTimeout: 5_000,
}

/**
 * The SMTP transport every service that mails uses (auth's codes, notifications, support),
 * sending from MAIL_FROM. One connection per mail (no pool): mails are rare, and nothing
 * stays open to go stale. With `metrics`, every send counts in `mail_messages_total` by
 * outcome (sent, failed); with tracing on, each send is a span of the trace that caused it.
 */
export function createMailTransport(config: MailConfig, options: { metrics?: Registry } = {}) {
  const transport = createTransport(
    {
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      pool: false,
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } : undefined,
      ...TIMEOUTS,
      // Our mails never attach files or fetch URLs.
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { from: config.MAIL_FROM },
  )
  const counted = options.metrics ? mailCounter(options.metrics) : null
  const send = transport.sendMail.bind(transport)
  const attributes = { 'server.address': config.SMTP_HOST, 'server.port': config.SMTP_PORT }
  // Every caller uses the promise form; the callback form is passed through as it is.
  transport.sendMail = ((
    mail: Parameters<typeof send>[0],
    callback?: Parameters<typeof send>[1],
  ) => {
    if (callback) return send(mail, callback)
    return inSpan('smtp send', attributes, () => send(mail)).then(
      (info) => {
        counted?.inc({ outcome: 'sent' })
        return info
      },
      (error: unknown) => {
        counted?.inc({ outcome: 'failed' })
        throw error
      },
    )
  }) as typeof transport.sendMail
  return transport
}

/** One counter per registry, whichever transport of the process registers it first. */
function mailCounter(registry: Registry): Counter<'outcome'> {
  const existing = registry.getSingleMetric('mail_messages_total')
  if (existing) return existing as Counter<'outcome'>
  return new Counter({
    name: 'mail_messages_total',
    help: 'Mails handed to the SMTP server (sent) and sends that failed (failed)',
    labelNames: ['outcome'],
    registers: [registry],
  })
}

export type MailTransport = ReturnType<typeof createMailTransport>

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!)
}

/** An absolute link into the app (APP_PUBLIC_URL without its trailing slashes, then path). */
export const appLink = (appPublicUrl: string, path: string) =>
  `${appPublicUrl.replace(/\/+$/, '')}${path}`
