import {
  COOKIE_SECURED,
  LoginAnswerSchema,
  LoginBodySchema,
  NoContent,
  SessionRenewalAnswerSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import { ForbiddenError } from '@marketplace/service-kit'
import { contextOf, type AuthApp, type AuthDependencies } from '../auth-dependencies'
import { safeEqual } from '../safe-equal'
import { revokeAccessTokens } from './revoke-access-tokens'
import { keepAccount } from './keep-account'
import { logIn } from './log-in'
import { isSameOrigin } from './same-origin'
import {
  REFRESH_COOKIE,
  XSRF_COOKIE,
  XSRF_HEADER,
  clearSessionCookies,
  setSessionCookies,
} from './session-cookies'
import { toLoginAnswer, toRenewalAnswer } from './session-views'
import { toChallengeAnswer } from '../two-step/second-step'
import { TwoStepChallengeAnswerSchema } from '../two-step/two-step-schemas'

const tags = ['auth']

export async function sessionsRoutes(
  app: AuthApp,
  options: { deps: AuthDependencies; extraOrigins: readonly string[] },
) {
  const { deps, extraOrigins } = options

  /**
   * The login: a session, or with two-step sign-in on a 202 challenge and no
   * session until POST /api/auth/two-step/verify (docs/identity.md, "Two-step sign-in").
   */
  app.post(
    '/api/auth/direct-login',
    {
      schema: {
        tags,
        summary: 'Log in with e-mail and password; sets the refresh and XSRF cookies',
        body: LoginBodySchema,
        response: {
          200: LoginAnswerSchema,
          // Two-step sign-in is on: the second step decides, nothing is set yet.
          202: TwoStepChallengeAnswerSchema,
          // 403: the address is not verified yet, or the account is being deleted.
          // 503: the sign-in code could not be mailed.
          ...errorResponses(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const outcome = await logIn(deps, request.body ?? {}, contextOf(request))
      if ('challengeId' in outcome) return reply.code(202).send(toChallengeAnswer(outcome))
      setSessionCookies(request, reply, outcome)
      return toLoginAnswer(outcome)
    },
  )

  /** "Keep my account" during the deletion grace period: the password, and a login's answer. */
  app.post(
    '/api/auth/keep-account',
    {
      schema: {
        tags,
        summary: '"Keep my account": cancel a pending deletion with the password, and log in',
        body: LoginBodySchema,
        // 409: no deletion pending; 403: the grace period is over.
        response: {
          200: LoginAnswerSchema,
          // Two-step sign-in is on: the deletion is lifted when the second step passes.
          202: TwoStepChallengeAnswerSchema,
          // 503: the sign-in code could not be mailed.
          ...errorResponses(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const outcome = await keepAccount(deps, request.body ?? {}, contextOf(request))
      if ('challengeId' in outcome) return reply.code(202).send(toChallengeAnswer(outcome))
      setSessionCookies(request, reply, outcome)
      return toLoginAnswer(outcome)
    },
  )

  /**
   * Renewal: cookie-authenticated, so it demands proof the page itself
   * asked: a same-origin Origin, and X-XSRF-TOKEN equal to the XSRF-TOKEN cookie and to the
   * HMAC of this session. Answers { accessToken, user, roles } with a rotated cookie.
   */
  app.post(
    '/api/auth/refresh',
    {
      schema: {
        tags,
        summary: 'Renew the access token with the refresh cookie (rotated on every use)',
        security: COOKIE_SECURED,
        response: { 200: SessionRenewalAnswerSchema, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      if (!isSameOrigin(request, extraOrigins)) {
        throw new ForbiddenError(Messages.auth.originRejected, 'ORIGIN_REJECTED')
      }
      const refreshCookie = request.cookies[REFRESH_COOKIE]
      const expected = deps.sessions.expectedXsrfToken(refreshCookie)
      const header = request.headers[XSRF_HEADER]
      const cookie = request.cookies[XSRF_COOKIE]
      if (
        expected &&
        (typeof header !== 'string' ||
          !cookie ||
          !safeEqual(header, cookie) ||
          !safeEqual(header, expected))
      ) {
        throw new ForbiddenError(Messages.auth.csrfRejected, 'CSRF_REJECTED')
      }
      try {
        const session = await deps.sessions.renew(refreshCookie)
        setSessionCookies(request, reply, session)
        return toRenewalAnswer(session)
      } catch (error) {
        clearSessionCookies(request, reply)
        throw error
      }
    },
  )

  /**
   * GET /logout: ends this browser's session family and clears the cookies.
   * A GET is safe here: the SameSite=Strict cookie never rides on another site's link.
   */
  app.get(
    '/logout',
    {
      schema: {
        tags,
        summary: "End this browser's session and clear its cookies; harmless without one",
        security: COOKIE_SECURED,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const userId = await deps.sessions.end(request.cookies[REFRESH_COOKIE])
      // The access token in the browser (or copied from it) must stop working now, on every
      // service and socket, not when its 15 minutes are over.
      if (userId) await revokeAccessTokens(deps, userId, 'logged-out', contextOf(request))
      clearSessionCookies(request, reply)
      return reply.code(204).send(null)
    },
  )
}
