import { newEvent } from '@marketplace/service-kit'
import type { AuthDependencies, RequestContext } from '../auth-dependencies'
import { revocationCutOff } from './revocation-cut-off'

/** Why the access tokens of a user died before their 15 minutes were over. */
export type AccessTokenRevocation = 'logged-out' | 'two-step-changed'

/**
 * Voids every access token of the user issued up to now. An access token is a signed
 * statement that lives for 15 minutes whatever happens to its session, so ending the session
 * alone leaves a copied token working on every service and socket. The cut-off is stored on
 * the account (auth's own check reads it) and sent as user.tokens-revoked, which every other
 * service keeps in the revocation list its token check reads and which closes the user's
 * sockets. Access tokens of the user's other signed-in browsers die too (a token does not say
 * more than its user and issue time to the services); their refresh sessions live on, so those
 * browsers get a new access token on their next request, as after any expiry.
 * Answers the cut-off: a token the caller is given after it must be signed once it is reached.
 */
export async function revokeAccessTokens(
  deps: Pick<AuthDependencies, 'credentials' | 'notifyOutbox'>,
  userId: string,
  reason: AccessTokenRevocation,
  context: Pick<RequestContext, 'requestId'> = {},
): Promise<Date> {
  const at = revocationCutOff(new Date())
  await deps.credentials.revokeAccessTokens(userId, at, [
    newEvent('user.tokens-revoked', {
      aggregateId: userId,
      actorId: userId,
      requestId: context.requestId,
      data: { userId, validAfter: at.toISOString(), reason },
    }),
  ])
  deps.notifyOutbox()
  return at
}
