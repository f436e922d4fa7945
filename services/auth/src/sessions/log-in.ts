import { Messages, normalizeEmail } from '@marketplace/contracts/validation'
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '@marketplace/service-kit'
import type { IssuedSession } from './sessions-service'
import { openSecondStep, type SignInChallenge } from '../two-step/second-step'
import { text, type AuthDependencies, type RequestContext } from '../auth-dependencies'

export interface LoginInput {
  email?: unknown
  password?: unknown
  /** "Keep me signed in": a refresh cookie that survives the browser (30 days). */
  persist?: unknown
}

/**
 * The e-mail and password of a login form, checked. The spec's client tells
 * "User not found" (404) from "Invalid email or password" (401), which reveals whether an
 * address has an account; sign-up's 409 reveals it anyway. We keep the answers and blunt the
 * enumeration: both paths spend one argon2 verification (uniform timing) and both are
 * rate-limited per address and per account. See docs/identity.md.
 */
export async function checkPassword(
  deps: AuthDependencies,
  input: LoginInput,
  context: RequestContext,
) {
  const email = normalizeEmail(text(input.email))
  const password = text(input.password)
  if (!email || !password) {
    throw new BadRequestError(Messages.login.missingCredentials, 'MISSING_CREDENTIALS')
  }
  const spent = await deps.rateLimits.consume(['loginIp', context.ip], ['loginAccount', email])

  const account = await deps.credentials.findByEmailWithSecret(email)
  if (!account) {
    await deps.hasher.verifyNothing(password)
    throw new NotFoundError(Messages.login.userNotFound, 'USER_NOT_FOUND')
  }
  if (!(await deps.hasher.verify(account.passwordHash, password))) {
    throw new UnauthorizedError(Messages.login.invalidCredentials, 'INVALID_CREDENTIALS')
  }
  // Forgive earlier failed attempts; with none to forgive, skip the two writes.
  const forgive = async () => {
    if ((spent.loginAccount ?? 0) > 1) await deps.rateLimits.reset('loginAccount', email)
  }
  return { account, forgive }
}

/**
 * POST /api/auth/direct-login: a session for a verified account not being deleted; or, when
 * the account has two-step sign-in on, a challenge and no session until the second step.
 */
export async function logIn(
  deps: AuthDependencies,
  input: LoginInput,
  context: RequestContext,
): Promise<IssuedSession | SignInChallenge> {
  const { account, forgive } = await checkPassword(deps, input, context)
  // Only someone who knows the password learns the account's state.
  if (!account.verified) {
    throw new ForbiddenError(Messages.auth.emailNotVerified, 'EMAIL_NOT_VERIFIED')
  }
  if (account.deletionRequestedAt) {
    throw new ForbiddenError(Messages.auth.accountDeletionPending, 'ACCOUNT_DELETION_PENDING')
  }
  await forgive()
  const challenge = await openSecondStep(deps, account, input.persist === true)
  return challenge ?? deps.sessions.start(account, input.persist === true)
}
