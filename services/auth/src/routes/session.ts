import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { Messages } from '@marketplace/contracts/validation'
import { ForbiddenError } from '@marketplace/service-kit'
import type { AuthDependencies } from '../domain/auth-dependencies'
import { keepAccount } from '../domain/keep-account'
import { logIn } from '../domain/log-in'
import { safeEqual } from '../lib/safe-equal'
import {
  LooseBody,
  UserAnswerSchema,
  contextOf,
  type LooseBodyValue,
} from '../http/request-context'
import { isSameOrigin } from '../http/same-origin'
import {
  REFRESH_COOKIE,
  XSRF_COOKIE,
  XSRF_HEADER,
  clearSessionCookies,
  setSessionCookies,
} from '../http/session-cookies'

export async function sessionRoutes(
  app: FastifyInstance,
  options: { deps: AuthDependencies; extraOrigins: readonly string[] },
) {
  const { deps, extraOrigins } = options

  /**
   * A password proves who is asking and a session starts: the login, and "Keep my account"
   * during the deletion grace period, which answers like a login.
   */
  const passwordRoutes = [
    ['/api/auth/direct-login', logIn],
    ['/api/auth/keep-account', keepAccount],
  ] as const
  for (const [url, useCase] of passwordRoutes) {
    app.post(
      url,
      {
        schema: {
          body: LooseBody,
          response: { 200: Type.Object({ user: UserAnswerSchema, accessToken: Type.String() }) },
        },
      },
      async (request, reply) => {
        const body = (request.body as LooseBodyValue) ?? {}
        const session = await useCase(deps, body, contextOf(request))
        setSessionCookies(request, reply, session)
        return { user: session.user, accessToken: session.accessToken }
      },
    )
  }

  /**
   * Renewal (spec 1 §4, §7): cookie-authenticated, so it demands proof the page itself
   * asked: a same-origin Origin, and X-XSRF-TOKEN equal to the XSRF-TOKEN cookie and to the
   * HMAC of this session. Answers { accessToken, user, roles } with a rotated cookie.
   */
  app.post(
    '/api/auth/refresh',
    {
      schema: {
        response: {
          200: Type.Object({
            accessToken: Type.String(),
            user: UserAnswerSchema,
            roles: Type.Array(Type.String()),
          }),
        },
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
        return { accessToken: session.accessToken, user: session.user, roles: session.user.roles }
      } catch (error) {
        clearSessionCookies(request, reply)
        throw error
      }
    },
  )

  /**
   * GET /logout (spec 1 §4): ends this browser's session family and clears the cookies.
   * A GET is safe here: the SameSite=Strict cookie never rides on another site's link.
   */
  app.get('/logout', async (request, reply) => {
    await deps.sessions.end(request.cookies[REFRESH_COOKIE])
    clearSessionCookies(request, reply)
    return reply.code(204).send()
  })
}
