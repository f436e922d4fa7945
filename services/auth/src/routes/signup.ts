import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { Messages, type SignupPayload } from '@marketplace/contracts/validation'
import type { AuthDependencies } from '../domain/auth-dependencies'
import { text } from '../domain/auth-dependencies'
import { signUp } from '../domain/sign-up'
import { LooseBody, contextOf, type LooseBodyValue } from '../http/request-context'

/** A body of any shape becomes a payload the shared rules can judge field by field. */
function toSignupPayload(body: LooseBodyValue): SignupPayload {
  const value = body ?? {}
  return {
    firstname: text(value.firstname),
    lastname: text(value.lastname),
    email: text(value.email),
    phoneNumber: text(value.phoneNumber),
    password: text(value.password),
    dateOfBirth: text(value.dateOfBirth),
    interest: typeof value.interest === 'string' ? value.interest : null,
    emailPreferences: value.emailPreferences === true,
    termsAgreed: value.termsAgreed === true,
  }
}

export async function signupRoutes(app: FastifyInstance, deps: AuthDependencies) {
  app.post(
    '/api/auth/signup',
    {
      schema: {
        body: LooseBody,
        response: { 201: Type.Object({ message: Type.String(), email: Type.String() }) },
      },
    },
    async (request, reply) => {
      // Before any validation or hashing: a flood of sign-ups costs a counter, not argon2.
      await deps.rateLimits.consume(['signupIp', request.ip])
      const { email } = await signUp(
        {
          credentials: deps.credentials,
          hasher: deps.hasher,
          requestId: contextOf(request).requestId,
        },
        toSignupPayload(request.body as LooseBodyValue),
      )
      deps.notifyOutbox()
      return reply.code(201).send({ message: Messages.auth.accountCreated, email })
    },
  )
}
