import { Messages, isValidPassword } from '@marketplace/contracts/validation'
import { BadRequestError, UnauthorizedError, newEvent } from '@marketplace/service-kit'
import { revocationCutOff, waitUntil } from '../sessions/revocation-cut-off'
import type { IssuedSession } from '../sessions/sessions-service'
import { text, type AuthDependencies, type RequestContext } from '../auth-dependencies'

/**
 * POST /api/auth/change-password, for the signed-in caller. Every session and
 * access token of the user ends (a thief's too); the caller gets a fresh session in the
 * same answer, so changing one's password does not sign oneself out.
 * A wrong current password is a 400, not a 401: a 401 would make the web client renew its
 * token and retry, as if the session had expired.
 */
export async function changePassword(
  deps: AuthDependencies,
  caller: { userId: string },
  input: { oldPassword?: unknown; newPassword?: unknown },
  context: RequestContext & { refreshCookie?: string },
): Promise<IssuedSession & { message: string }> {
  const oldPassword = text(input.oldPassword)
  const newPassword = text(input.newPassword)
  if (!oldPassword || !newPassword) {
    throw new BadRequestError(Messages.auth.changeFieldsRequired, 'MISSING_FIELDS')
  }
  await deps.rateLimits.consume(['changePasswordAccount', caller.userId])
  if (!isValidPassword(newPassword)) {
    throw new BadRequestError(Messages.auth.passwordRules, 'INVALID_PASSWORD')
  }
  const account = await deps.credentials.findByIdWithSecret(caller.userId)
  if (!account) throw new UnauthorizedError(Messages.auth.sessionEnded, 'SESSION_ENDED')
  if (!(await deps.hasher.verify(account.passwordHash, oldPassword))) {
    throw new BadRequestError(Messages.auth.wrongCurrentPassword, 'WRONG_PASSWORD')
  }
  if (newPassword === oldPassword) {
    throw new BadRequestError(Messages.auth.samePassword, 'SAME_PASSWORD')
  }
  const persistent = await deps.sessions.persistenceOf(context.refreshCookie, caller.userId)
  const at = revocationCutOff(new Date())
  await deps.credentials.setPassword(
    account._id,
    { passwordHash: await deps.hasher.hash(newPassword), at, verify: false },
    [
      newEvent('user.tokens-revoked', {
        aggregateId: account._id,
        actorId: account._id,
        requestId: context.requestId,
        data: { userId: account._id, validAfter: at.toISOString(), reason: 'password-changed' },
      }),
    ],
  )
  deps.notifyOutbox()
  await deps.sessions.endAllOfUser(account._id, 'password-changed')
  // The fresh token must be issued at or after the cut-off, or it would be refused too.
  await waitUntil(at)
  const fresh = await deps.sessions.start(account, persistent)
  return { ...fresh, message: Messages.forgotPassword.changed }
}
