import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IssuedSession } from './sessions-service'

export const REFRESH_COOKIE = 'refresh_token'
/** Cookie XSRF-TOKEN, header X-XSRF-TOKEN. */
export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'x-xsrf-token'

/**
 * Path "/" is the only path that covers both /api/auth/* and GET /logout; the gateway
 * strips the refresh cookie from requests to every other service. SameSite=Strict keeps
 * it off cross-site requests; Secure follows the browser's scheme (https in production,
 * plain http on localhost, where browsers would drop a Secure cookie).
 */
function baseOptions(request: FastifyRequest) {
  return { path: '/', sameSite: 'strict' as const, secure: request.protocol === 'https' }
}

export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  session: IssuedSession,
  now = Date.now(),
): void {
  // "Keep me signed in": persistent until the family's absolute end; otherwise a session
  // cookie the browser forgets when it closes (the server still ends it at expiresAt).
  const lifetime = session.persistent
    ? { maxAge: Math.max(0, Math.floor((session.expiresAt.getTime() - now) / 1000)) }
    : {}
  reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    ...baseOptions(request),
    ...lifetime,
    httpOnly: true,
  })
  // Readable by the page's script, which echoes it in X-XSRF-TOKEN.
  reply.setCookie(XSRF_COOKIE, session.xsrfToken, {
    ...baseOptions(request),
    ...lifetime,
    httpOnly: false,
  })
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, { ...baseOptions(request), httpOnly: true })
  reply.clearCookie(XSRF_COOKIE, { ...baseOptions(request), httpOnly: false })
}
