import { newEvent, type EventHandler } from '@marketplace/service-kit'
import { revocationCutOff } from '../sessions/revocation-cut-off'
import type { CodesRepository } from '../codes/codes-repository'
import type { TwoStepRepository } from '../two-step/two-step-repository'
import type { CredentialsRepository } from './credentials-repository'
import type { SessionsRepository } from '../sessions/sessions-repository'
import type { RateLimits } from '../rate-limits/rate-limits'

interface Deps {
  credentials: CredentialsRepository
  sessions: SessionsRepository
  codes: CodesRepository
  twoStep: TwoStepRepository
  rateLimits: Pick<RateLimits, 'forgetAccount'>
  notifyOutbox(): void
}

/**
 * user.deletion-requested: during the grace period the account cannot log in or renew;
 * every session ends and every access token dies (user.tokens-revoked tells the others).
 */
export function userDeletionRequestedHandler(deps: Deps): EventHandler<'user.deletion-requested'> {
  return async (event) => {
    const { userId, requestedAt, purgeAfter } = event.data
    const at = revocationCutOff(new Date(requestedAt))
    await deps.credentials.markDeletionRequested(userId, at, new Date(purgeAfter), [
      newEvent('user.tokens-revoked', {
        aggregateId: userId,
        actorId: event.actorId,
        requestId: event.requestId,
        data: { userId, validAfter: at.toISOString(), reason: 'deletion-requested' },
      }),
    ])
    deps.notifyOutbox()
    await deps.sessions.revokeAllOfUser(userId, 'deletion-requested')
  }
}

/** user.deleted: the grace period is over; nothing of the user stays in auth's database. */
export function userDeletedHandler(deps: Deps): EventHandler<'user.deleted'> {
  return async (event) => {
    const { userId } = event.data
    const account = await deps.credentials.findById(userId)
    await deps.sessions.removeAllOfUser(userId)
    await deps.codes.removeAllOfUser(userId)
    await deps.twoStep.removeAllOfUser(userId)
    if (account) {
      await deps.rateLimits.forgetAccount(account.email)
      await deps.rateLimits.forgetAccount(userId)
    }
    // Last, so a retry after a failure above still finds the address.
    await deps.credentials.remove(userId)
  }
}
