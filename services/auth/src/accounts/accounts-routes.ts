import {
  AuthMessageSchema,
  ChangePasswordAnswerSchema,
  ChangePasswordBodySchema,
  ConfirmSignupBodySchema,
  ForgotPasswordBodySchema,
  PasswordResetBodySchema,
  ResendConfirmationBodySchema,
  SECURED,
  SignupAnswerSchema,
  SignupBodySchema,
  errorResponses,
  type SignupBody,
} from '@marketplace/contracts/api'
import { Messages, type SignupPayload } from '@marketplace/contracts/validation'
import { callerOf } from '@marketplace/service-kit'
import { contextOf, text, type AuthApp, type AuthDependencies } from '../auth-dependencies'
import { REFRESH_COOKIE, setSessionCookies } from '../sessions/session-cookies'
import { toChangePasswordAnswer } from '../sessions/session-views'
import { changePassword } from './change-password'
import { confirmPasswordReset, forgotPassword } from './reset-password'
import { signUp } from './sign-up'
import { confirmSignup, resendConfirmation } from './verify-email'

const tags = ['auth']

/** A body of any shape becomes a payload the shared rules can judge field by field. */
function toSignupPayload(body: SignupBody): SignupPayload {
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

/** Sign-up, e-mail verification and passwords: the account's own life. */
export async function accountsRoutes(app: AuthApp, deps: AuthDependencies) {
  app.post(
    '/api/auth/signup',
    {
      schema: {
        tags,
        summary: 'Create an account; the verification code is mailed to the address',
        body: SignupBodySchema,
        response: { 201: SignupAnswerSchema, ...errorResponses(400, 409, 429) },
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
        toSignupPayload(request.body),
      )
      deps.notifyOutbox()
      return reply.code(201).send({ message: Messages.auth.accountCreated, email })
    },
  )

  app.post(
    '/api/auth/confirm-signup',
    {
      schema: {
        tags,
        summary: 'Verify the e-mail address with the 6-digit code from the sign-up mail',
        body: ConfirmSignupBodySchema,
        response: { 200: AuthMessageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => confirmSignup(deps, request.body ?? {}, contextOf(request)),
  )

  app.post(
    '/api/auth/resend-confirmation',
    {
      schema: {
        tags,
        summary: 'Mail a new verification code; the previous one stops working',
        body: ResendConfirmationBodySchema,
        // 503: the mail server refused the code ("Failed to resend verification code.").
        response: { 200: AuthMessageSchema, ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => resendConfirmation(deps, request.body ?? {}, contextOf(request)),
  )

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'Mail a password reset code; the same answer whether or not the address exists',
        body: ForgotPasswordBodySchema,
        response: { 200: AuthMessageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const { message } = await forgotPassword(deps, request.body ?? {}, contextOf(request))
      return { message }
    },
  )

  app.post(
    '/api/auth/confirm-password-reset',
    {
      schema: {
        tags,
        summary: 'Set a new password with the mailed reset code; every session ends',
        body: PasswordResetBodySchema,
        response: { 200: AuthMessageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => confirmPasswordReset(deps, request.body ?? {}, contextOf(request)),
  )

  app.post(
    '/api/auth/change-password',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        summary: 'Change the password; every other session ends, the caller gets a fresh one',
        security: SECURED,
        body: ChangePasswordBodySchema,
        response: { 200: ChangePasswordAnswerSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const session = await changePassword(deps, callerOf(request), request.body ?? {}, {
        ...contextOf(request),
        refreshCookie: request.cookies[REFRESH_COOKIE],
      })
      setSessionCookies(request, reply, session)
      return toChangePasswordAnswer(session)
    },
  )
}
