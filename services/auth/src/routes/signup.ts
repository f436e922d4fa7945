import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { SignupPayloadSchema } from '@marketplace/contracts/validation'
import { signUp } from '../domain/sign-up'
import type { AuthDependencies } from '../app'

export async function signupRoutes(app: FastifyInstance, deps: AuthDependencies) {
  app.post(
    '/api/auth/signup',
    {
      schema: {
        body: SignupPayloadSchema,
        response: { 201: Type.Object({ message: Type.String(), email: Type.String() }) },
      },
    },
    async (request, reply) => {
      const { email } = await signUp({ ...deps, requestId: request.id }, request.body as never)
      app.events.notifyOutbox()
      return reply
        .code(201)
        .send({ message: 'Account created', email })
    },
  )
}
