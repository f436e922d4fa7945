import type { MetricsRegistry } from '@marketplace/service-kit'
import { createMailTransport, type MailConfig } from '@marketplace/service-kit/mail'
import {
  passwordResetMail,
  secondStepLockedMail,
  signInMail,
  verificationMail,
  type MailContent,
} from './templates'

export interface Mailer {
  sendVerificationCode(input: { to: string; firstName: string; code: string }): Promise<void>
  sendPasswordResetCode(input: { to: string; firstName: string; code: string }): Promise<void>
  /** The second step of a sign-in with e-mail two-step on. */
  sendSignInCode(input: { to: string; firstName: string; code: string }): Promise<void>
  /** The second step is locked after wrong codes in a row: someone else has the password. */
  sendSecondStepLocked(input: { to: string; firstName: string; lockedUntil: Date }): Promise<void>
  /** true when the SMTP server answers (for a readiness check) */
  isReachable(): Promise<boolean>
  close(): void
}

export function createMailer(
  config: MailConfig,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any pino/console-like logger
  logger?: { info: Function; error: Function },
  /** Where `mail_messages_total` counts the sends (the app's /metrics). */
  metrics?: MetricsRegistry,
): Mailer {
  const transport = createMailTransport(config, { metrics })

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
    sendSignInCode: ({ to, firstName, code }) =>
      send('sign-in', to, signInMail({ firstName, code, appPublicUrl: config.APP_PUBLIC_URL })),
    sendSecondStepLocked: ({ to, firstName, lockedUntil }) =>
      send(
        'second-step-locked',
        to,
        secondStepLockedMail({ firstName, lockedUntil, appPublicUrl: config.APP_PUBLIC_URL }),
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
