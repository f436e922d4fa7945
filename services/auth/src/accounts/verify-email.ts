import { Messages, isValidEmail, normalizeEmail } from '@marketplace/contracts/validation'
import { AppError, BadRequestError, newEvent } from '@marketplace/service-kit'
import { text, type AuthDependencies, type RequestContext } from '../auth-dependencies'

/**
 * POST /api/auth/confirm-signup: the 6-digit code from the sign-up mail proves the address.
 * An unknown address gets the same answer as a missing code.
 */
export async function confirmSignup(
  deps: AuthDependencies,
  input: { email?: unknown; code?: unknown },
  context: RequestContext,
): Promise<{ message: string }> {
  const email = normalizeEmail(text(input.email))
  const code = text(input.code).trim()
  if (!email || !code)
    throw new BadRequestError(Messages.auth.emailAndCodeRequired, 'MISSING_FIELDS')
  await deps.rateLimits.consume(['confirmIp', context.ip], ['confirmAccount', email])

  const account = await deps.credentials.findByEmail(email)
  if (!account) throw new BadRequestError(Messages.auth.codeMissing, 'CODE_MISSING')
  if (account.verified) throw new BadRequestError(Messages.auth.alreadyVerified, 'ALREADY_VERIFIED')

  await deps.codes.consume(account._id, 'verify-email', code)
  const verified = newEvent('user.verified', {
    aggregateId: account._id,
    actorId: account._id,
    requestId: context.requestId,
    data: { userId: account._id },
  })
  if (await deps.credentials.markVerified(account._id, [verified])) deps.notifyOutbox()
  return { message: Messages.auth.emailVerified }
}

/** POST /api/auth/resend-confirmation: a new code, the old one void; the mail is sent now. */
export async function resendConfirmation(
  deps: AuthDependencies,
  input: { email?: unknown },
  context: RequestContext,
): Promise<{ message: string }> {
  const email = normalizeEmail(text(input.email))
  if (!email) throw new BadRequestError(Messages.auth.emailRequired, 'MISSING_FIELDS')
  if (!isValidEmail(email)) throw new BadRequestError(Messages.signup.invalidEmail, 'INVALID_EMAIL')
  await deps.rateLimits.consume(['resendIp', context.ip], ['resendAccount', email])

  const account = await deps.credentials.findByEmail(email)
  // No account: the same answer and no mail (nothing to verify, nobody to tell).
  if (!account) return { message: Messages.verification.resendSucceeded }
  if (account.verified) throw new BadRequestError(Messages.auth.alreadyVerified, 'ALREADY_VERIFIED')

  const code = await deps.codes.issue(account._id, 'verify-email')
  try {
    await deps.mailer.sendVerificationCode({ to: email, firstName: account.firstName, code })
  } catch (error) {
    deps.log.error({ err: error, userId: account._id }, 'verification mail failed')
    throw new AppError(503, 'MAIL_UNAVAILABLE', Messages.verification.resendFailed)
  }
  return { message: Messages.verification.resendSucceeded }
}
