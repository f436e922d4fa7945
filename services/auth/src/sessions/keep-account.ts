import type { IssuedSession } from './sessions-service'
import { checkDeletionLiftable, liftDeletion } from '../accounts/lift-deletion'
import type { AuthDependencies, RequestContext } from '../auth-dependencies'
import { openSecondStep, type SignInChallenge } from '../two-step/second-step'
import { checkPassword, type LoginInput } from './log-in'

/**
 * POST /api/auth/keep-account: "Keep my account" during the 30-day grace period. The account
 * can no longer log in, so the password is the proof: the same checks, limits and timing as
 * a login. Lifting the deletion and storing user.deletion-cancelled are one write; the people
 * service puts the profile back when the event arrives. The answer is a login's: the person
 * is signed in again, or, with two-step sign-in on, a challenge, and the deletion is lifted
 * when the second step passes. After the grace period the purge has started and nothing can
 * be kept.
 */
export async function keepAccount(
  deps: AuthDependencies,
  input: LoginInput,
  context: RequestContext,
  now: Date = new Date(),
): Promise<IssuedSession | SignInChallenge> {
  const { account, forgive } = await checkPassword(deps, input, context)
  checkDeletionLiftable(account, now)
  await forgive()
  // Two-step sign-in on: the password alone neither lifts the deletion nor signs in.
  const challenge = await openSecondStep(deps, account, input.persist === true, 'keep-account')
  return challenge ?? liftDeletion(deps, account, input.persist === true, context)
}
