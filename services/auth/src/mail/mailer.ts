import { createTransport } from 'nodemailer'
import type { MailConfig } from './mail-config'
import { passwordResetMail, verificationMail, type MailContent } from './templates'

export interface Mailer {
  sendVerificationCode(input: { to: string; firstName: string; code: string }): Promise<void>
  sendPasswordResetCode(input: { to: string; firstName: string; code: string }): Promise<void>
  /** true when the SMTP server answers (for a readiness check) */
  isReachable(): Promise<boolean>
  close(): void
}

// Nodemailer's defaults wait up to 2 minutes to connect and 10 minutes on a silent socket;
// a send blocks an event handler's retry, so a dead server has to fail within seconds.
const TIMEOUTS = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
  dnsTimeout: 5_000,
}

export function createMailer(
  config: MailConfig,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any pino/console-like logger
  logger?: { info: Function; error: Function },
): Mailer {
  // One connection per mail (no pool): mails are rare, and nothing stays open to go stale.
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

  async function send(kind: string, to: string, content: MailContent): Promise<void> {
    try {
      const info = await transport.sendMail({ to, ...content })
      logger?.info({ mail: kind, messageId: info.messageId }, 'mail sent')
    } catch (error) {
      // The code is not logged: it is a credential until it expires.
      logger?.error({ err: error, mail: kind }, 'mail not sent')
      throw error instanceof Error ? error : new Error(`mail not sent: ${String(error)}`)
    }
  }

  return {
    sendVerificationCode: ({ to, firstName, code }) =>
      send(
        'verification',
        to,
        verificationMail({ firstName, code, appPublicUrl: config.APP_PUBLIC_URL }),
      ),
    sendPasswordResetCode: ({ to, firstName, code }) =>
      send(
        'password-reset',
        to,
        passwordResetMail({ firstName, code, appPublicUrl: config.APP_PUBLIC_URL }),
      ),
    async isReachable() {
      try {
        await transport.verify()
        return true
      } catch {
        return false
      }
    },
    close() {
      transport.close()
    },
  }
}
