import { AuthMessageSchema, SECURED, errorResponses } from '@marketplace/contracts/api'
import { callerOf } from '@marketplace/service-kit'
import { contextOf, type AuthApp, type AuthDependencies } from '../auth-dependencies'
import { setSessionCookies } from '../sessions/session-cookies'
import { toLoginAnswer } from '../sessions/session-views'
import { LoginAnswerSchema } from '@marketplace/contracts/api'
import { completeSignIn, sendSignInCode } from './second-step'
import {
  AuthenticatorConfirmAnswerSchema,
  AuthenticatorSetupAnswerSchema,
  CompleteSignInBodySchema,
  ConfirmAuthenticatorBodySchema,
  PasswordOnlyBodySchema,
  SendSignInCodeBodySchema,
  SetEmailTwoStepBodySchema,
  TwoStepChangeAnswerSchema,
  TwoStepStatusSchema,
} from './two-step-schemas'
import {
  confirmAuthenticatorSetup,
  disableAuthenticator,
  readTwoStep,
  setEmailTwoStep,
  startAuthenticatorSetup,
} from './two-step-settings'

const tags = ['auth']

/** Two-step sign-in: the signed-in user's settings, and the second step of a login. */
export async function twoStepRoutes(app: AuthApp, deps: AuthDependencies) {
  app.get(
    '/api/auth/two-step',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: "The caller's two-step sign-in methods",
        security: SECURED,
        response: { 200: TwoStepStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => readTwoStep(deps, callerOf(request).userId),
  )

  app.put(
    '/api/auth/two-step/email',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Turn e-mail two-step sign-in on or off (asks for the password)',
        security: SECURED,
        body: SetEmailTwoStepBodySchema,
        response: { 200: TwoStepChangeAnswerSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => setEmailTwoStep(deps, callerOf(request).userId, request.body ?? {}),
  )

  app.post(
    '/api/auth/two-step/authenticator/setup',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: a secret and its QR code, shown once',
        security: SECURED,
        body: PasswordOnlyBodySchema,
        // 409: an authenticator is already on.
        response: { 200: AuthenticatorSetupAnswerSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => startAuthenticatorSetup(deps, callerOf(request).userId, request.body ?? {}),
  )

  app.post(
    '/api/auth/two-step/authenticator/confirm',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Turn the authenticator on with its first code; answers ten recovery codes once',
        security: SECURED,
        body: ConfirmAuthenticatorBodySchema,
        response: { 200: AuthenticatorConfirmAnswerSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) =>
      confirmAuthenticatorSetup(deps, callerOf(request).userId, request.body ?? {}),
  )

  app.post(
    '/api/auth/two-step/authenticator/disable',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Turn the authenticator app off, with its recovery codes (asks for the password)',
        security: SECURED,
        body: PasswordOnlyBodySchema,
        response: { 200: TwoStepChangeAnswerSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => disableAuthenticator(deps, callerOf(request).userId, request.body ?? {}),
  )

  app.post(
    '/api/auth/two-step/email-code',
    {
      schema: {
        tags,
        summary: 'Mail a new sign-in code for a login waiting for its second step',
        body: SendSignInCodeBodySchema,
        response: { 200: AuthMessageSchema, ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => sendSignInCode(deps, request.body ?? {}, contextOf(request)),
  )

  app.post(
    '/api/auth/two-step/verify',
    {
      schema: {
        tags,
        summary: 'Finish a login with its second step; sets the refresh and XSRF cookies',
        body: CompleteSignInBodySchema,
        // 403: the account's deletion was requested while the code was on its way.
        response: { 200: LoginAnswerSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const session = await completeSignIn(deps, request.body ?? {}, contextOf(request))
      setSessionCookies(request, reply, session)
      return toLoginAnswer(session)
    },
  )
}
