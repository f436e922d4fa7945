import { Messages } from '@marketplace/contracts/validation'
import { ConflictError, ForbiddenError, newEvent } from '@marketplace/service-kit'
import type { CredentialDoc } from './credential-document'
import type { AuthDependencies, RequestContext } from '../auth-dependencies'
import type { IssuedSession } from '../sessions/sessions-service'

// "Keep my account" (sessions/keep-account.ts), straight after the password or after the
// second step of two-step sign-in (two-step/second-step.ts): the deletion checks and the
// lifting, shared by both.

/** A pending deletion that may still be lifted, or the error that says why not. */
export function checkDeletionLiftable(account: CredentialDoc, now: Date): void {
  if (!account.deletionRequestedAt) {
    throw new ConflictError(Messages.auth.noDeletionPending, 'NO_DELETION_PENDING')
  }
  if (account.deletionPurgeAfter && account.deletionPurgeAfter.getTime() <= now.getTime()) {
    throw new ForbiddenError(Messages.auth.deletionGraceOver, 'DELETION_GRACE_OVER')
  }
}

/** Lifts the deletion (the account and user.deletion-cancelled in one write) and signs in. */
export async function liftDeletion(
  deps: AuthDependencies,
  account: CredentialDoc,
  persist: boolean,
  context: RequestContext,
): Promise<IssuedSession> {
  const cancelled = newEvent('user.deletion-cancelled', {
    aggregateId: account._id,
    actorId: account._id,
    requestId: context.requestId,
    data: { userId: account._id },
  })
  if (await deps.credentials.cancelDeletion(account._id, [cancelled])) deps.notifyOutbox()
  return deps.sessions.start(account, persist)
}
