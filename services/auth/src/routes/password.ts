import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { callerOf } from '@marketplace/service-kit'
import type { AuthDependencies } from '../domain/auth-dependencies'
import { changePassword } from '../domain/change-password'
import { confirmPasswordReset, forgotPassword } from '../domain/reset-password'
import {
  LooseBody,
  MessageAnswer,
  UserAnswerSchema,
  contextOf,
  type LooseBodyValue,
} from '../http/request-context'
import { REFRESH_COOKIE, setSessionCookies } from '../http/session-cookies'

export async function passwordRoutes(app: FastifyInstance, deps: AuthDependencies) {
  const schema = { body: LooseBody, response: { 200: MessageAnswer } }

  app.post('/api/auth/forgot-password', { schema }, async (request) => {
    const { message } = await forgotPassword(
      deps,
      (request.body as LooseBodyValue) ?? {},
      contextOf(request),
    )
    return { message }
  })

  app.post('/api/auth/confirm-password-reset', { schema }, async (request) =>
    confirmPasswordReset(deps, (request.body as LooseBodyValue) ?? {}, contextOf(request)),
  )

  app.post(
    '/api/auth/change-password',
    {
      preHandler: app.authenticate,
      schema: {
        body: LooseBody,
        response: {
          200: Type.Object({
            message: Type.String(),
            accessToken: Type.String(),
            user: UserAnswerSchema,
            roles: Type.Array(Type.String()),
          }),
        },
      },
    },
    async (request, reply) => {
      const session = await changePassword(
        deps,
        callerOf(request),
        (request.body as LooseBodyValue) ?? {},
        { ...contextOf(request), refreshCookie: request.cookies[REFRESH_COOKIE] },
      )
      setSessionCookies(request, reply, session)
      return {
        message: session.message,
        accessToken: session.accessToken,
        user: session.user,
        roles: session.user.roles,
      }
    },
  )
}
