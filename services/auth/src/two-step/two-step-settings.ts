import { BadRequestError, ConflictError, UnauthorizedError } from '@marketplace/service-kit'
import { Messages } from '@marketplace/contracts/validation'
import { text, type AuthDependencies } from '../auth-dependencies'
import { revokeAccessTokens } from '../sessions/revoke-access-tokens'
import { CODE_PATTERN } from '../codes/one-time-codes'
import type { TwoStepDoc } from './two-step-document'
import { TwoStepMessages as t } from './two-step-messages'
import { RECOVERY_CODE_COUNT, newRecoveryCode } from './two-step-secrets'
import { enrolmentOf, matchTotp, newTotpSecret } from './totp'

export interface TwoStepStatus {
  email: boolean
  authenticator: boolean
  recoveryCodesLeft: number
}

export function statusOf(doc: TwoStepDoc | null): TwoStepStatus {
  return {
    email: doc?.email === true,
    authenticator: !!doc?.totpSecret,
    recoveryCodesLeft: doc?.totpSecret ? doc.recoveryCodeHashes.length : 0,
  }
}

/**
 * Turning a method on or off asks for the password again, so a session left
 * open on a shared computer cannot switch the protection off (or lock its owner out). The
 * check is rate-limited per account like a login. Answers the account, with its secret.
 */
async function confirmPassword(deps: AuthDependencies, userId: string, password: unknown) {
  const given = text(password)
  if (!given) throw new BadRequestError(t.passwordRequired, 'PASSWORD_REQUIRED')
  await deps.rateLimits.consume(['twoStepSettingsAccount', userId])
  const account = await deps.credentials.findByIdWithSecret(userId)
  if (!account) throw new UnauthorizedError(Messages.auth.sessionEnded, 'SESSION_ENDED')
  // 400, not 401: a 401 would make the web client renew its token and retry.
  if (!(await deps.hasher.verify(account.passwordHash, given))) {
    throw new BadRequestError(t.wrongPassword, 'WRONG_PASSWORD')
  }
  return account
}

export async function readTwoStep(deps: AuthDependencies, userId: string) {
  return statusOf(await deps.twoStep.findSettings(userId))
}

/** PUT /api/auth/two-step/email: e-mail two-step on or off. */
export async function setEmailTwoStep(
  deps: AuthDependencies,
  userId: string,
  input: { password?: unknown; enabled?: unknown },
) {
  if (typeof input.enabled !== 'boolean') {
    throw new BadRequestError('enabled must be true or false', 'ENABLED_REQUIRED')
  }
  await confirmPassword(deps, userId, input.password)
  await deps.twoStep.setEmail(userId, input.enabled, new Date())
  // Turning a method on or off changes how the account signs in: every access token issued
  // before it dies, so one copied earlier cannot outlive the change. The caller's browser
  // renews its own token from its session, as after an expiry.
  await revokeAccessTokens(deps, userId, 'two-step-changed')
  const status = await readTwoStep(deps, userId)
  return { message: input.enabled ? t.emailEnabled : t.emailDisabled, status }
}

/**
 * POST /api/auth/two-step/authenticator/setup: a new secret, pending until a first code
 * proves the app holds it. The secret is shown this once (QR code and text for manual
 * entry); it is stored encrypted and never answered again.
 */
export async function startAuthenticatorSetup(
  deps: AuthDependencies,
  userId: string,
  input: { password?: unknown },
) {
  const account = await confirmPassword(deps, userId, input.password)
  if ((await deps.twoStep.findSettings(userId))?.totpSecret) {
    throw new ConflictError(t.authenticatorAlreadyOn, 'AUTHENTICATOR_ALREADY_ON')
  }
  const secret = newTotpSecret()
  await deps.twoStep.setPendingTotp(userId, deps.twoStepSecrets.encrypt(secret), new Date())
  const { uri, qrCode } = await enrolmentOf(secret, account.email)
  return { secret, otpauthUri: uri, qrCode }
}

/**
 * POST /api/auth/two-step/authenticator/confirm: the first code turns the app on and
 * answers the ten recovery codes, in clear this once (only their keyed hashes are kept).
 */
export async function confirmAuthenticatorSetup(
  deps: AuthDependencies,
  userId: string,
  input: { code?: unknown },
) {
  const code = text(input.code).trim()
  if (!CODE_PATTERN.test(code)) throw new BadRequestError(t.codeFormat, 'CODE_FORMAT')
  await deps.rateLimits.consume(['twoStepAccount', userId])
  const pending = (await deps.twoStep.findSettings(userId))?.pendingTotpSecret
  if (!pending) throw new BadRequestError(t.enrolmentMissing, 'ENROLMENT_MISSING')
  const step = await matchTotp(deps.twoStepSecrets.decrypt(pending), code)
  if (step === null) throw new BadRequestError(t.setupCodeWrong, 'CODE_WRONG')
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  const confirmed = await deps.twoStep.confirmTotp(userId, {
    sealedSecret: pending,
    step,
    recoveryCodeHashes: recoveryCodes.map((c) => deps.twoStepSecrets.hashRecoveryCode(userId, c)),
    now: new Date(),
  })
  if (!confirmed) throw new BadRequestError(t.enrolmentMissing, 'ENROLMENT_MISSING')
  await revokeAccessTokens(deps, userId, 'two-step-changed')
  return {
    message: t.authenticatorEnabled,
    recoveryCodes,
    status: await readTwoStep(deps, userId),
  }
}

/** POST /api/auth/two-step/authenticator/disable: the app and its recovery codes go. */
export async function disableAuthenticator(
  deps: AuthDependencies,
  userId: string,
  input: { password?: unknown },
) {
  await confirmPassword(deps, userId, input.password)
  await deps.twoStep.removeTotp(userId, new Date())
  await revokeAccessTokens(deps, userId, 'two-step-changed')
  return { message: t.authenticatorDisabled, status: await readTwoStep(deps, userId) }
}
