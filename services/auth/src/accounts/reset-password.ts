import {
  Messages,
  isValidEmail,
  isValidPassword,
  normalizeEmail,
} from '@marketplace/contracts/validation'
import { BadRequestError, newEvent } from '@marketplace/service-kit'
import type { DomainEvent } from '@marketplace/contracts/events'
import { revocationCutOff } from '../sessions/revocation-cut-off'
import { text, type AuthDependencies, type RequestContext } from '../auth-dependencies'

/**
 * POST /api/auth/forgot-password: the answer is the same, and as fast, whether or not the
 * address has an account; the code is issued and mailed after the response is sent.
 */
export async function forgotPassword(
  deps: AuthDependencies,
  input: { email?: unknown },
  context: RequestContext,
): Promise<{ message: string; delivery: Promise<void> }> {
  const email = normalizeEmail(text(input.email))
  if (!email) throw new BadRequestError(Messages.auth.emailRequired, 'MISSING_FIELDS')
  if (!isValidEmail(email)) throw new BadRequestError(Messages.signup.invalidEmail, 'INVALID_EMAIL')
  await deps.rateLimits.consume(['forgotIp', context.ip], ['forgotAccount', email])

  const delivery = (async () => {
    const account = await deps.credentials.findByEmail(email)
    if (!account) return
    const code = await deps.codes.issue(account._id, 'reset-password')
    await deps.mailer.sendPasswordResetCode({ to: email, firstName: account.firstName, code })
  })().catch((error: unknown) => {
    deps.log.error({ err: error, requestId: context.requestId }, 'password reset mail failed')
  })
  return { message: Messages.auth.resetCodeSent, delivery }
}

/**
 * POST /api/auth/confirm-password-reset: the code proves the mailbox, so the password is
 * replaced, every session and access token of the user ends, and an unverified address
 * counts as verified from now on.
 */
export async function confirmPasswordReset(
  deps: AuthDependencies,
  input: { email?: unknown; code?: unknown; newPassword?: unknown },
  context: RequestContext,
): Promise<{ message: string }> {
  const email = normalizeEmail(text(input.email))
  const code = text(input.code).trim()
  const newPassword = text(input.newPassword)
  if (!email || !code || !newPassword) {
    throw new BadRequestError(Messages.auth.resetFieldsRequired, 'MISSING_FIELDS')
  }
  await deps.rateLimits.consume(['resetIp', context.ip], ['resetAccount', email])
  // Checked before the code, so a typo in the password does not burn the code.
  if (!isValidPassword(newPassword)) {
    throw new BadRequestError(Messages.auth.passwordRules, 'INVALID_PASSWORD')
  }
  const account = await deps.credentials.findByEmail(email)
  if (!account) throw new BadRequestError(Messages.auth.codeMissing, 'CODE_MISSING')
  await deps.codes.consume(account._id, 'reset-password', code)

  const at = revocationCutOff(new Date())
  const events: DomainEvent[] = [
    newEvent('user.tokens-revoked', {
      aggregateId: account._id,
      actorId: account._id,
      requestId: context.requestId,
      data: { userId: account._id, validAfter: at.toISOString(), reason: 'password-reset' },
    }),
  ]
  if (!account.verified) {
    events.push(
      newEvent('user.verified', {
        aggregateId: account._id,
        actorId: account._id,
        requestId: context.requestId,
        data: { userId: account._id },
      }),
    )
  }
  await deps.credentials.setPassword(
    account._id,
    { passwordHash: await deps.hasher.hash(newPassword), at, verify: !account.verified },
    events,
  )
  deps.notifyOutbox()
  await deps.sessions.endAllOfUser(account._id, 'password-reset')
  return { message: Messages.forgotPassword.changed }
}
