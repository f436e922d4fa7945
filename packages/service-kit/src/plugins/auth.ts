import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ForbiddenError, UnauthorizedError } from '../errors'

/** The claims every access token carries (auth service signs them). */
export interface AccessTokenClaims {
  sub: string
  roles: string[]
  iat: number
  exp: number
}

export interface Caller {
  userId: string
  roles: string[]
}

export interface AuthPluginOptions {
  publicKey: string
  issuer: string
  audience: string
  /**
   * Extra check after the signature, for example "issued before the user's last password
   * change" (tokens-valid-after). Resolve false to refuse the token.
   */
  isTokenStillValid?: (claims: AccessTokenClaims) => Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless a valid access token is presented. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>
    /** preHandler: reads a token when there is one; guests pass as `caller = null`. */
    identifyIfPossible(request: FastifyRequest, reply: FastifyReply): Promise<void>
    /**
     * The same checks for a token that did not come in an Authorization header (a Socket.IO
     * handshake); throws UnauthorizedError.
     */
    verifyAccessToken(token: string): Promise<Caller>
  }
  interface FastifyRequest {
    caller: Caller | null
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenClaims
    user: AccessTokenClaims
  }
}

/** Keys may come as PEM text or base64 of it (handier in env files and k8s secrets). */
export function decodeKey(value: string): string {
  return value.includes('-----BEGIN')
    ? value.replace(/\\n/g, '\n')
    : Buffer.from(value, 'base64').toString('utf8')
}

/**
 * Verifies access tokens with the auth service's public key. The algorithm is pinned to
 * EdDSA, so "none" and HS256-with-the-public-key tricks fail; iss, aud and exp are enforced.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthPluginOptions) => {
    await app.register(fastifyJwt, {
      secret: { public: decodeKey(options.publicKey), private: 'verify-only' },
      verify: {
        algorithms: ['EdDSA'],
        allowedIss: options.issuer,
        allowedAud: options.audience,
        requiredClaims: ['sub', 'exp', 'iss', 'aud'],
      },
    })
    app.decorateRequest('caller', null)

    function refusal(error: unknown): UnauthorizedError {
      // @fastify/jwt's code from a request, fast-jwt's own from app.jwt.verify.
      const code = (error as { code?: string }).code
      const expired = code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED' || code === 'FAST_JWT_EXPIRED'
      return new UnauthorizedError(
        expired ? 'Your session has expired' : 'Authentication required',
        expired ? 'TOKEN_EXPIRED' : 'UNAUTHORIZED',
      )
    }

    async function callerOfClaims(claims: AccessTokenClaims): Promise<Caller> {
      if (options.isTokenStillValid && !(await options.isTokenStillValid(claims))) {
        throw new UnauthorizedError('Your session has ended, please log in again', 'TOKEN_REVOKED')
      }
      return {
        userId: claims.sub,
        roles: Array.isArray(claims.roles) ? claims.roles.map(String) : [],
      }
    }

    async function readCaller(request: FastifyRequest): Promise<Caller> {
      let claims: AccessTokenClaims
      try {
        claims = await request.jwtVerify<AccessTokenClaims>()
      } catch (error) {
        throw refusal(error)
      }
      return callerOfClaims(claims)
    }

    app.decorate('verifyAccessToken', async (token: string) => {
      let claims: AccessTokenClaims
      try {
        claims = app.jwt.verify<AccessTokenClaims>(token)
      } catch (error) {
        throw refusal(error)
      }
      return callerOfClaims(claims)
    })

    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.caller = await readCaller(request)
    })
    app.decorate('identifyIfPossible', async (request: FastifyRequest) => {
      if (!request.headers.authorization) return
      request.caller = await readCaller(request)
    })
  },
  { name: 'auth' },
)

/** The caller of an authenticated route (throws when a route forgot the preHandler). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new UnauthorizedError()
  return request.caller
}

/**
 * BOLA guard for `{userId}` path parameters: a user may only name themself. The answer is 403
 * (the id is the caller's claim about who they are, not a lookup of someone's object).
 */
export function assertSelf(request: FastifyRequest, userId: string): Caller {
  const caller = callerOf(request)
  if (caller.userId !== userId) throw new ForbiddenError('You can only access your own account')
  return caller
}

export function assertRole(request: FastifyRequest, ...roles: string[]): Caller {
  const caller = callerOf(request)
  if (!caller.roles.some((role) => roles.includes(role))) throw new ForbiddenError()
  return caller
}
