import { Messages } from '@marketplace/contracts/validation'
import { AppError, BadRequestError, ForbiddenError } from '@marketplace/service-kit'
import type { CredentialDoc } from '../accounts/credential-document'
import { text, type AuthDependencies, type RequestContext } from '../auth-dependencies'
import { CODE_PATTERN } from '../codes/one-time-codes'
import type { IssuedSession } from '../sessions/sessions-service'
import type { SecondStepMethod, SignInChallengeDoc } from './two-step-document'
import { TwoStepMessages as t } from './two-step-messages'
import type { TwoStepChallengeAnswer } from './two-step-schemas'
import { CHALLENGE_MAX_ATTEMPTS } from './two-step-repository'
import { RECOVERY_CODE_PATTERN, normalizeRecoveryCode } from './two-step-secrets'
import { matchTotp } from './totp'
import { checkDeletionLiftable, liftDeletion } from '../accounts/lift-deletion'

/** What a correct password answers when a second step is due: no session yet. */
export interface SignInChallenge {
  challengeId: string
  /** The authenticator first when both are on; recovery codes always work. */
  methods: SecondStepMethod[]
  expiresAt: Date
  /** Whether a code is on its way by e-mail (e-mail is the only method). */
  emailCodeSent: boolean
}

/** direct-login's 202 body. */
export function toChallengeAnswer(challenge: SignInChallenge): TwoStepChallengeAnswer {
  return {
    twoStepRequired: true,
    challengeId: challenge.challengeId,
    methods: challenge.methods,
    expiresAt: challenge.expiresAt.toISOString(),
    emailCodeSent: challenge.emailCodeSent,
  }
}

const ANSWER_METHODS = ['authenticator', 'email', 'recovery'] as const
type AnswerMethod = (typeof ANSWER_METHODS)[number]

async function mailCode(deps: AuthDependencies, account: CredentialDoc) {
  const code = await deps.codes.issue(account._id, 'sign-in')
  try {
    await deps.mailer.sendSignInCode({ to: account.email, firstName: account.firstName, code })
  } catch {
    throw new AppError(503, 'MAIL_UNAVAILABLE', Messages.verification.resendFailed)
  }
}

/**
 * After a correct password: a challenge when the account has two-step sign-in on, null
 * otherwise. With e-mail as the only method the code is mailed at once; with an
 * authenticator too, only when the person picks e-mail at the prompt.
 */
export async function openSecondStep(
  deps: AuthDependencies,
  account: CredentialDoc,
  persist: boolean,
  purpose?: SignInChallengeDoc['purpose'],
): Promise<SignInChallenge | null> {
  const settings = await deps.twoStep.findSettings(account._id)
  const methods: SecondStepMethod[] = []
  if (settings?.totpSecret) methods.push('authenticator')
  if (settings?.email) methods.push('email')
  if (methods.length === 0) return null
  const { challengeId, expiresAt } = await deps.twoStep.openChallenge({
    userId: account._id,
    methods,
    persist,
    purpose,
    now: new Date(),
  })
  const emailCodeSent = methods[0] === 'email'
  if (emailCodeSent) await mailCode(deps, account)
  return { challengeId, methods, expiresAt, emailCodeSent }
}

/** A live challenge, or a 400 that sends the person back to the login form. */
async function liveChallenge(deps: AuthDependencies, challengeId: unknown) {
  const id = text(challengeId)
  if (!id) throw new BadRequestError(t.challengeRequired, 'CHALLENGE_REQUIRED')
  const challenge = await deps.twoStep.findChallenge(id)
  if (!challenge || challenge.expiresAt <= new Date()) {
    throw new BadRequestError(t.challengeEnded, 'CHALLENGE_ENDED')
  }
  return challenge
}

/** POST /api/auth/two-step/email-code: mails a (new) sign-in code for this challenge. */
export async function sendSignInCode(
  deps: AuthDependencies,
  input: { challengeId?: unknown },
  context: RequestContext,
) {
  await deps.rateLimits.consume(['twoStepIp', context.ip])
  const challenge = await liveChallenge(deps, input.challengeId)
  if (!challenge.methods.includes('email')) {
    throw new BadRequestError(t.methodNotEnabled, 'METHOD_NOT_ENABLED')
  }
  await deps.rateLimits.consume(['twoStepMailAccount', challenge.userId])
  const account = await deps.credentials.findById(challenge.userId)
  if (!account) throw new BadRequestError(t.challengeEnded, 'CHALLENGE_ENDED')
  await mailCode(deps, account)
  return { message: t.emailCodeSent }
}

function wrong(attemptsMade: number): BadRequestError {
  return new BadRequestError(
    t.codeWrong(Math.max(0, CHALLENGE_MAX_ATTEMPTS - attemptsMade)),
    'CODE_WRONG',
  )
}

/**
 * While the account's second step is locked (too many wrong codes in a row, whoever sent
 * them), authenticator codes are refused before they are judged: a script holding the
 * password cannot go on guessing them. The owner keeps a way in: a recovery code (too long to
 * guess) or, with e-mail two-step on, a code mailed to them.
 */
async function refuseWhileLocked(deps: AuthDependencies, userId: string, method: AnswerMethod) {
  if (method !== 'authenticator') return
  const lockedUntil = (await deps.twoStep.findSettings(userId))?.secondStepLockedUntil
  const leftMs = lockedUntil ? lockedUntil.getTime() - Date.now() : 0
  if (leftMs > 0) {
    throw new AppError(429, 'SECOND_STEP_LOCKED', t.secondStepLocked(Math.ceil(leftMs / 60_000)), {
      'retry-after': String(Math.ceil(leftMs / 1000)),
    })
  }
}

/** One more wrong second step; a lock it starts is mailed to the owner (best effort). */
async function countFailure(deps: AuthDependencies, userId: string) {
  const lockedUntil = await deps.twoStep.recordSecondStepFailure(userId, new Date())
  if (!lockedUntil) return
  const account = await deps.credentials.findById(userId)
  if (!account) return
  try {
    await deps.mailer.sendSecondStepLocked({
      to: account.email,
      firstName: account.firstName,
      lockedUntil,
    })
  } catch (error) {
    // The lock holds without the mail; the answer to the request must not fail with it.
    deps.log.warn({ err: error, userId }, 'second-step lock mail not sent')
  }
}

/** Judges one answer to the challenge; throws a 400 when it is not right. */
async function checkAnswer(
  deps: AuthDependencies,
  challenge: SignInChallengeDoc,
  method: AnswerMethod,
  code: string,
  attemptsMade: number,
): Promise<void> {
  const { userId } = challenge
  if (method === 'email') {
    try {
      await deps.codes.consume(userId, 'sign-in', code)
      return
    } catch (error) {
      // The challenge's count is the one the person sees: every method spends it.
      if (error instanceof AppError && error.code === 'CODE_WRONG') throw wrong(attemptsMade)
      throw error
    }
  }
  if (method === 'authenticator') {
    const sealed = (await deps.twoStep.findSettings(userId))?.totpSecret
    if (!sealed) throw new BadRequestError(t.methodNotEnabled, 'METHOD_NOT_ENABLED')
    const step = await matchTotp(deps.twoStepSecrets.decrypt(sealed), code)
    // A code already used (same step, or an older one) is refused like a wrong one.
    if (step === null || !(await deps.twoStep.acceptTotpStep(userId, step))) {
      throw wrong(attemptsMade)
    }
    return
  }
  const hash = deps.twoStepSecrets.hashRecoveryCode(userId, code)
  if (!(await deps.twoStep.spendRecoveryCode(userId, hash))) throw wrong(attemptsMade)
}

/**
 * POST /api/auth/two-step/verify: the second step. Every try counts against the challenge's
 * five, whatever the method; the fifth wrong one ends it. The session starts only here,
 * with "Keep me signed in" as ticked on the login form.
 */
export async function completeSignIn(
  deps: AuthDependencies,
  input: { challengeId?: unknown; method?: unknown; code?: unknown },
  context: RequestContext,
): Promise<IssuedSession> {
  const method = ANSWER_METHODS.find((name) => name === input.method)
  if (!method) {
    throw new BadRequestError('method must be authenticator, email or recovery', 'METHOD_REQUIRED')
  }
  const code = text(input.code).trim()
  const formatOk =
    method === 'recovery' ? RECOVERY_CODE_PATTERN.test(code.toUpperCase()) : CODE_PATTERN.test(code)
  // A typo in the shape of the code does not spend a try.
  if (!formatOk) {
    throw new BadRequestError(
      method === 'recovery' ? t.recoveryCodeFormat : t.codeFormat,
      'CODE_FORMAT',
    )
  }
  await deps.rateLimits.consume(['twoStepIp', context.ip])
  const challenge = await liveChallenge(deps, input.challengeId)
  await deps.rateLimits.consume(['twoStepAccount', challenge.userId])
  if (method !== 'recovery' && !challenge.methods.includes(method)) {
    throw new BadRequestError(t.methodNotEnabled, 'METHOD_NOT_ENABLED')
  }
  await refuseWhileLocked(deps, challenge.userId, method)
  const made = await deps.twoStep.recordAttempt(challenge)
  if (made > CHALLENGE_MAX_ATTEMPTS) {
    await deps.twoStep.closeChallenge(challenge)
    throw new BadRequestError(t.attemptsExhausted, 'CHALLENGE_ATTEMPTS_EXHAUSTED')
  }
  try {
    await checkAnswer(
      deps,
      challenge,
      method,
      method === 'recovery' ? normalizeRecoveryCode(code) : code,
      made,
    )
  } catch (error) {
    if (made >= CHALLENGE_MAX_ATTEMPTS) await deps.twoStep.closeChallenge(challenge)
    if (error instanceof AppError && error.code === 'CODE_WRONG') {
      await countFailure(deps, challenge.userId)
    }
    throw error
  }
  await deps.twoStep.clearSecondStepFailures(challenge.userId)
  // Single use: of two right answers sent at once, one session starts.
  if (!(await deps.twoStep.closeChallenge(challenge))) {
    throw new BadRequestError(t.challengeEnded, 'CHALLENGE_ENDED')
  }
  const account = await deps.credentials.findById(challenge.userId)
  if (!account) throw new BadRequestError(t.challengeEnded, 'CHALLENGE_ENDED')
  // "Keep my account" with two-step on: the deletion is lifted only now, and signs in.
  // The grace period may have ended during the 10 minutes: checked again.
  if (challenge.purpose === 'keep-account') {
    checkDeletionLiftable(account, new Date())
    return liftDeletion(deps, account, challenge.persist, context)
  }
  // The account may have changed during the 10 minutes (deletion requested meanwhile).
  if (account.deletionRequestedAt) {
    throw new ForbiddenError(Messages.auth.accountDeletionPending, 'ACCOUNT_DELETION_PENDING')
  }
  return deps.sessions.start(account, challenge.persist)
}
