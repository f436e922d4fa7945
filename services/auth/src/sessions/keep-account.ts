import { Messages } from '@marketplace/contracts/validation'
import { ConflictError, ForbiddenError, newEvent } from '@marketplace/service-kit'
import type { IssuedSession } from './sessions-service'
import type { AuthDependencies, RequestContext } from '../auth-dependencies'
import { checkPassword, type LoginInput } from './log-in'

/**
 * POST /api/auth/keep-account: "Keep my account" during the 30-day grace period. The account
 * can no longer log in, so the password is the proof: the same checks, limits and timing as
 * a login. Lifting the deletion and storing user.deletion-cancelled are one write; the people
 * service puts the profile back when the event arrives. The answer is a login's: the person
 * is signed in again. After the grace period the purge has started and nothing can be kept.
 */
export async function keepAccount(
  deps: AuthDependencies,
  input: LoginInput,
  context: RequestContext,
  now: Date = new Date(),
): Promise<IssuedSession> {
  const { account, forgive } = await checkPassword(deps, input, context)
  if (!account.deletionRequestedAt) {
    throw new ConflictError(Messages.auth.noDeletionPending, 'NO_DELETION_PENDING')
  }
  if (account.deletionPurgeAfter && account.deletionPurgeAfter.getTime() <= now.getTime()) {
    throw new ForbiddenError(Messages.auth.deletionGraceOver, 'DELETION_GRACE_OVER')
  }
  const cancelled = newEvent('user.deletion-cancelled', {
    aggregateId: account._id,
    actorId: account._id,
    requestId: context.requestId,
    data: { userId: account._id },
  })
  if (await deps.credentials.cancelDeletion(account._id, [cancelled])) deps.notifyOutbox()
  await forgive()
  return deps.sessions.start(account, input.persist === true)
}
