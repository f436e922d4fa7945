// The auth service's HTTP contract: request and response schemas of its routes.
import { Type, type Static, type TProperties } from '@sinclair/typebox'
import { INTERESTS } from '../marketplace/interests'
import { ROLES } from '../marketplace/roles'
import { Messages } from '../validation/messages'

/**
 * A body field of an auth route. Declared, described with the type it should have, and left
 * unconstrained on purpose (docs/identity.md, "Bodies are not JSON-schema validated"): a
 * missing or mistyped field must answer the product's sentence ("Missing email or password",
 * "You must agree to the Terms of Service"), which the use case gives by reading anything
 * that is not of the described type as missing; a type in the schema would answer Ajv's
 * text instead, or let Ajv's coercion turn `42` into "42" and `"true"` into true.
 */
function looseField(description: string, examples?: unknown[]) {
  return Type.Optional(Type.Unknown({ description, ...(examples ? { examples } : {}) }))
}

/**
 * An auth body: the listed fields, any other one dropped (Ajv's removeAdditional). No body,
 * or `null`, reads as a body without fields, so it gets the use case's "... required" answer.
 */
function authBody<P extends TProperties>(title: string, properties: P) {
  return Type.Union([Type.Object(properties, { additionalProperties: false, title }), Type.Null()])
}

const EMAIL_EXAMPLE = 'ada.lovelace@example.com'
const PASSWORD_EXAMPLE = 'Analytic1843!'
const PASSWORD_RULE =
  'Text of 8 to 24 characters with a lowercase letter, an uppercase letter, a digit and one of ! @ # $ %.'

export const SignupBodySchema = authBody('SignupBody', {
  firstname: looseField(
    'Text: a letter, then letters or hyphens, at most 24. Otherwise 400 "Invalid First Name".',
    ['Ada'],
  ),
  lastname: looseField(
    'Text: a letter, then letters or hyphens, at most 24. Otherwise 400 "Invalid Last Name".',
    ['Lovelace'],
  ),
  email: looseField(
    'Text: an e-mail address, trimmed and lower-cased. Otherwise 400 "Invalid Email Address".',
    [EMAIL_EXAMPLE],
  ),
  phoneNumber: looseField(
    'Text: a US number of 10 digits (optional +1), usual separators allowed; stored as (212) 555-0100. Otherwise 400 "Invalid Phone Number".',
    ['2125550100'],
  ),
  password: looseField(`${PASSWORD_RULE} Otherwise 400 "Invalid Password".`, [PASSWORD_EXAMPLE]),
  dateOfBirth: looseField(
    'Text: YYYY-MM-DD, at least 18 years ago. Under 18: 400 "You must be at least 18 years old".',
    ['1990-12-10'],
  ),
  interest: looseField(
    `Optional text, one of ${INTERESTS.join(', ')}. Another value: 400 "Please select your interest".`,
    ['Both'],
  ),
  emailPreferences: looseField('true to receive e-mails; anything else reads as false.', [false]),
  termsAgreed: looseField(
    'Must be true (the boolean). Anything else: 400 "You must agree to the Terms of Service".',
    [true],
  ),
})
export type SignupBody = Static<typeof SignupBodySchema>

export const ConfirmSignupBodySchema = authBody('ConfirmSignupBody', {
  email: looseField('Text: the address signed up with.', [EMAIL_EXAMPLE]),
  code: looseField(
    'Text: the 6 digits of the verification mail. Missing with the e-mail: 400 "Email and code are required".',
    ['123456'],
  ),
})
export type ConfirmSignupBody = Static<typeof ConfirmSignupBodySchema>

const emailOnlyField = looseField(
  'Text: an e-mail address. Missing: 400 "Email is required"; malformed: 400 "Invalid Email Address".',
  [EMAIL_EXAMPLE],
)

export const ResendConfirmationBodySchema = authBody('ResendConfirmationBody', {
  email: emailOnlyField,
})
export type ResendConfirmationBody = Static<typeof ResendConfirmationBodySchema>

export const ForgotPasswordBodySchema = authBody('ForgotPasswordBody', { email: emailOnlyField })
export type ForgotPasswordBody = Static<typeof ForgotPasswordBodySchema>

/** The login form, also the body of "Keep my account". */
export const LoginBodySchema = authBody('LoginBody', {
  email: looseField(
    'Text: the address signed up with. Missing, blank or not text: 400 "Missing email or password".',
    [EMAIL_EXAMPLE],
  ),
  password: looseField('Text. Missing or not text: 400 "Missing email or password".', [
    PASSWORD_EXAMPLE,
  ]),
  persist: looseField(
    '"Keep me signed in": true keeps the cookies for 30 days; anything else makes them last as long as the browser.',
    [true],
  ),
})
export type LoginBody = Static<typeof LoginBodySchema>

export const PasswordResetBodySchema = authBody('PasswordResetBody', {
  email: looseField('Text: the address the reset code was mailed to.', [EMAIL_EXAMPLE]),
  code: looseField('Text: the 6 digits of the password reset mail.', ['654321']),
  newPassword: looseField(
    `${PASSWORD_RULE} Checked before the code, so a typo does not spend it.`,
    ['Engine1842$'],
  ),
})
export type PasswordResetBody = Static<typeof PasswordResetBodySchema>

export const ChangePasswordBodySchema = authBody('ChangePasswordBody', {
  oldPassword: looseField(
    'Text: the current password. Wrong: 400 "Current password is incorrect" (not 401, which would make a client renew and retry).',
    [PASSWORD_EXAMPLE],
  ),
  newPassword: looseField(`${PASSWORD_RULE} Must differ from the current one.`, ['Engine1842$']),
})
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>

/** The answers that are one sentence of the product's copy. */
export const AuthMessageSchema = Type.Object(
  {
    message: Type.String({
      description: 'The product copy to show',
      examples: [Messages.auth.emailVerified, Messages.verification.resendSucceeded],
    }),
  },
  {
    additionalProperties: false,
    title: 'AuthMessage',
    description: 'Done; the message says what happened',
  },
)
export type AuthMessage = Static<typeof AuthMessageSchema>

export const SignupAnswerSchema = Type.Object(
  {
    message: Type.String({ examples: [Messages.auth.accountCreated] }),
    email: Type.String({
      description: 'The address as stored (trimmed, lower-case): where the code was mailed',
      examples: [EMAIL_EXAMPLE],
    }),
  },
  {
    additionalProperties: false,
    title: 'SignupAnswer',
    description: 'Account created; the verification code is on its way by mail',
  },
)
export type SignupAnswer = Static<typeof SignupAnswerSchema>

const rolesOf = (description: string) =>
  Type.Array(Type.String(), {
    description: `${description}: ${Object.entries(ROLES)
      .map(([name, code]) => `${code} ${name}`)
      .join(', ')}`,
    examples: [[ROLES.User]],
  })

/** The `user` of login, renewal and password-change answers (the product's "User (auth)" shape). */
export const SessionUserSchema = Type.Object(
  {
    _id: Type.String({ description: 'The user id', examples: ['65f1a2b3c4d5e6f7a8b9c0d1'] }),
    firstName: Type.String({ examples: ['Ada'] }),
    lastName: Type.String({ examples: ['Lovelace'] }),
    email: Type.String({ examples: [EMAIL_EXAMPLE] }),
    phoneNumber: Type.String({ examples: ['(212) 555-0100'] }),
    isWorker: Type.Boolean({ description: 'Whether the user has a worker profile' }),
    roles: rolesOf('Role codes'),
  },
  { additionalProperties: false, title: 'SessionUser' },
)
export type SessionUser = Static<typeof SessionUserSchema>

const accessToken = Type.String({
  description: 'EdDSA-signed JWT for the Authorization header, valid 15 minutes',
})

/** direct-login and keep-account; the session cookies ride in Set-Cookie. */
export const LoginAnswerSchema = Type.Object(
  { user: SessionUserSchema, accessToken },
  {
    additionalProperties: false,
    title: 'LoginAnswer',
    description: 'Signed in; the refresh_token and XSRF-TOKEN cookies are set',
  },
)
export type LoginAnswer = Static<typeof LoginAnswerSchema>

/**
 * refresh (the product's contract: "accessToken, user, roles"); the rotated refresh cookie
 * in Set-Cookie.
 */
export const SessionRenewalAnswerSchema = Type.Object(
  { accessToken, user: SessionUserSchema, roles: rolesOf("The user's role codes") },
  {
    additionalProperties: false,
    title: 'SessionRenewalAnswer',
    description: 'Renewed; the refresh_token cookie is rotated',
  },
)
export type SessionRenewalAnswer = Static<typeof SessionRenewalAnswerSchema>

/** change-password: every other session ended, the caller gets a fresh one in the answer. */
export const ChangePasswordAnswerSchema = Type.Object(
  {
    message: Type.String({ examples: [Messages.forgotPassword.changed] }),
    accessToken,
    user: SessionUserSchema,
    roles: rolesOf("The user's role codes"),
  },
  {
    additionalProperties: false,
    title: 'ChangePasswordAnswer',
    description: "Changed; the caller's fresh session cookies are set",
  },
)
export type ChangePasswordAnswer = Static<typeof ChangePasswordAnswerSchema>
