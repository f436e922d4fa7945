import { createTransport } from 'nodemailer'
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
 * stays open to go stale.
 */
export function createMailTransport(config: MailConfig) {
  return createTransport(
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
