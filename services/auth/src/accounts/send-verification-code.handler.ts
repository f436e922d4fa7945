import type { EventHandler } from '@marketplace/service-kit'
import type { CodeService } from '../codes/codes-service'
import type { Mailer } from '../mail/mailer'
import type { CredentialsRepository } from './credentials-repository'

/**
 * user.registered → the verification mail. Sending from the event, not from the sign-up
 * request, means a sign-up never fails or waits because the mail server is slow, and a mail
 * server that is down only delays the code: the handler throws, the offset stays, and the
 * consumer tries again (the ledger makes sure one sign-up sends one mail).
 */
export function sendVerificationCodeHandler(deps: {
  credentials: CredentialsRepository
  codes: CodeService
  mailer: Mailer
}): EventHandler<'user.registered'> {
  return async (event) => {
    const account = await deps.credentials.findById(event.data.userId)
    // Verified already (the admin bootstrap) or gone: nothing to send.
    if (!account || account.verified) return
    const code = await deps.codes.issue(account._id, 'verify-email')
    await deps.mailer.sendVerificationCode({
      to: account.email,
      firstName: account.firstName,
      code,
    })
  }
}
