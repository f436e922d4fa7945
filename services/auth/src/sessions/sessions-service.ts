import { Messages } from '@marketplace/contracts/validation'
import { UnauthorizedError } from '@marketplace/service-kit'
import type { SessionUser } from '@marketplace/contracts/api'
import type { FastifyBaseLogger } from 'fastify'
import type { CredentialDoc } from '../accounts/credential-document'
import type { CredentialsRepository } from '../accounts/credentials-repository'
import { safeEqual } from '../safe-equal'
import type { AccessTokenSigner } from './access-tokens'
import {
  formatRefreshToken,
  hashRefreshSecret,
  newFamilyId,
  newRefreshSecret,
  parseRefreshToken,
  successorSecret,
  xsrfTokenFor,
} from './refresh-tokens'
import { waitUntil } from './revocation-cut-off'
import type { RevokeReason, SessionDoc } from './session-document'
import { toSessionUser } from './session-user'
import type { SessionsRepository } from './sessions-repository'

export interface SessionPolicy {
  sessionSecret: string
  persistentSessionDays: number
  browserSessionHours: number
  /** How long a spent refresh token still answers its own successor (0: never). */
  reuseGraceSeconds: number
}

/** What a login, a renewal or a password change hands to the HTTP layer. */
export interface IssuedSession {
  familyId: string
  refreshToken: string
  xsrfToken: string
  persistent: boolean
  expiresAt: Date
  accessToken: string
  user: SessionUser
}

const HOUR_MS = 60 * 60 * 1000

/**
 * Refresh sessions (RFC 9700 §4.14.2): a login opens a family; every renewal spends the
 * presented token and records its successor in one write only one request can win;
 * presenting a secret that is spent or no longer current means the token was copied, so the
 * whole family is revoked and both holders must log in again.
 *
 * One exception, the grace window: the token spent by the family's last renewal, presented
 * again within `reuseGraceSeconds`, answers that same successor. Two tabs of one browser
 * renewing at once send the same cookie; without the window the slower one looked like a
 * thief and signed the user out everywhere. RFC 9700 §4.14.2 leaves the detection policy to
 * the server; the window yields nothing a holder of the spent token could not have had a
 * moment earlier (the same successor, never a new branch), and after it reuse revokes.
 */
export function createSessionService(deps: {
  sessions: SessionsRepository
  credentials: CredentialsRepository
  signer: AccessTokenSigner
  policy: SessionPolicy
  log: FastifyBaseLogger
}) {
  const { sessions, credentials, signer, policy, log } = deps

  function issue(
    user: CredentialDoc,
    family: { _id: string; persistent: boolean; expiresAt: Date },
    secret: string,
  ): IssuedSession {
    return {
      familyId: family._id,
      refreshToken: formatRefreshToken({ familyId: family._id, secret }),
      xsrfToken: xsrfTokenFor(policy.sessionSecret, family._id),
      persistent: family.persistent,
      expiresAt: family.expiresAt,
      accessToken: signer.sign({ userId: user._id, roles: user.roles, sessionId: family._id }),
      user: toSessionUser(user),
    }
  }

  /**
   * A logout or a two-step change voids the user's tokens up to the start of the next second
   * (tokens carry their issue time in whole seconds): a sign-in or renewal in that same second
   * waits for it, or its new token would be refused at once.
   */
  async function signableAfterCutOff(user: CredentialDoc): Promise<void> {
    if (user.tokensValidAfter) await waitUntil(user.tokensValidAfter)
  }

  /** The token spent by the family's last renewal, back within the window, successor unchanged. */
  function isGraceReplay(
    family: SessionDoc | null,
    presentedHash: string,
    successorHash: string,
    now: Date,
  ): boolean {
    return (
      family !== null &&
      !family.revokedAt &&
      typeof family.previousTokenHash === 'string' &&
      safeEqual(presentedHash, family.previousTokenHash) &&
      safeEqual(successorHash, family.tokenHash) &&
      now.getTime() - family.rotatedAt.getTime() <= policy.reuseGraceSeconds * 1000
    )
  }

  return {
    async start(
      user: CredentialDoc,
      persistent: boolean,
      now = new Date(),
    ): Promise<IssuedSession> {
      const lifetimeMs = persistent
        ? policy.persistentSessionDays * 24 * HOUR_MS
        : policy.browserSessionHours * HOUR_MS
      const secret = newRefreshSecret()
      const family = {
        _id: newFamilyId(),
        userId: user._id,
        tokenHash: hashRefreshSecret(secret),
        persistent,
        createdAt: now,
        expiresAt: new Date(now.getTime() + lifetimeMs),
        rotatedAt: now,
        generation: 0,
        revokedAt: null,
        revokedReason: null,
      }
      await sessions.create(family)
      await signableAfterCutOff(user)
      return issue(user, family, secret)
    },

    /** The XSRF token that belongs with a refresh cookie, or null for a malformed one. */
    expectedXsrfToken(refreshCookie: string | undefined): string | null {
      const parsed = parseRefreshToken(refreshCookie)
      return parsed ? xsrfTokenFor(policy.sessionSecret, parsed.familyId) : null
    },

    async renew(refreshCookie: string | undefined, now = new Date()): Promise<IssuedSession> {
      const presented = parseRefreshToken(refreshCookie)
      if (!presented) throw new UnauthorizedError(Messages.auth.sessionMissing, 'NO_SESSION')
      const ended = () => new UnauthorizedError(Messages.auth.sessionEnded, 'SESSION_ENDED')

      const family = await sessions.findById(presented.familyId)
      if (!family || family.expiresAt <= now || (await sessions.isRevoked(family))) throw ended()
      const presentedHash = hashRefreshSecret(presented.secret)
      const secret = successorSecret(policy.sessionSecret, presented)
      const successorHash = hashRefreshSecret(secret)
      const rotated = safeEqual(presentedHash, family.tokenHash)
        ? await sessions.rotate(family._id, presentedHash, successorHash, now)
        : null
      // Not rotated here: another request may have spent this very token a moment ago (read
      // the family again, after its write), or a rotated token came back, so nobody holding
      // this family can be trusted.
      if (
        !rotated &&
        !isGraceReplay(await sessions.findById(family._id), presentedHash, successorHash, now)
      ) {
        await sessions.revoke(family, 'reuse-detected', now)
        log.warn(
          { familyId: family._id, userId: family.userId, generation: family.generation },
          'refresh token reuse detected; session family revoked',
        )
        throw ended()
      }

      const user = await credentials.findById(family.userId)
      if (!user || user.deletionRequestedAt) {
        await sessions.revoke(family, 'account-unavailable', now)
        throw ended()
      }
      await signableAfterCutOff(user)
      return issue(user, family, secret)
    },

    /**
     * Logout: the family of this cookie ends; a missing or unknown cookie is a no-op. Answers
     * the user whose session it was (their access tokens must die too), or null.
     */
    async end(refreshCookie: string | undefined): Promise<string | null> {
      const presented = parseRefreshToken(refreshCookie)
      if (!presented) return null
      const family = await sessions.findById(presented.familyId)
      if (!family) return null
      await sessions.revoke(family, 'logout')
      return family.userId
    },

    /** Whether the caller's current session is a "Keep me signed in" one. */
    async persistenceOf(refreshCookie: string | undefined, userId: string): Promise<boolean> {
      const presented = parseRefreshToken(refreshCookie)
      if (!presented) return false
      const family = await sessions.findById(presented.familyId)
      return family?.userId === userId && family.persistent
    },

    endAllOfUser(userId: string, reason: RevokeReason): Promise<number> {
      return sessions.revokeAllOfUser(userId, reason)
    },
  }
}
export type SessionService = ReturnType<typeof createSessionService>
