import type { FastifyInstance } from 'fastify'
import type { AuthDependencies } from '../domain/auth-dependencies'
import { confirmSignup, resendConfirmation } from '../domain/verify-email'
import { LooseBody, MessageAnswer, contextOf, type LooseBodyValue } from '../http/request-context'

export async function verificationRoutes(app: FastifyInstance, deps: AuthDependencies) {
  const schema = { body: LooseBody, response: { 200: MessageAnswer } }

  app.post('/api/auth/confirm-signup', { schema }, async (request) =>
    confirmSignup(deps, (request.body as LooseBodyValue) ?? {}, contextOf(request)),
  )

  app.post('/api/auth/resend-confirmation', { schema }, async (request) =>
    resendConfirmation(deps, (request.body as LooseBodyValue) ?? {}, contextOf(request)),
  )
}
