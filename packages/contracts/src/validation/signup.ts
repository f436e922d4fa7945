import { Type, type Static } from '@sinclair/typebox'
import { isInterest, type Interest } from '../marketplace/interests'
import { checkDateOfBirth } from './date-of-birth'
import { isValidEmail, normalizeEmail } from './email'
import { Messages } from './messages'
import { isValidName } from './names'
import { isValidPassword, passwordsMatch } from './password'
import { normalizePhoneNumber, isValidPhoneNumber } from './phone'

/**
 * Body of POST /api/auth/signup. Typed loosely on purpose: the route only
 * checks shapes, and `validateSignupPayload` applies the real rules and answers with the
 * product's messages instead of a schema error.
 */
export const SignupPayloadSchema = Type.Object({
  firstname: Type.String(),
  lastname: Type.String(),
  email: Type.String(),
  phoneNumber: Type.String(),
  password: Type.String(),
  dateOfBirth: Type.String(),
  interest: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  emailPreferences: Type.Optional(Type.Boolean()),
  termsAgreed: Type.Boolean(),
})
export type SignupPayload = Static<typeof SignupPayloadSchema>

/** The web form: the payload plus the confirm-password field, which the server never gets. */
export interface SignupForm extends SignupPayload {
  confirmPassword: string
}

/**
 * First failed rule's message, or null when every rule passes, in the spec's
 * order: first name, last name, email, phone, password, confirm password, age, interest,
 * terms. Confirm password is checked only when present, so the server (which gets no
 * confirm field) and the web form share this one function.
 *
 * A date of birth that is empty or not a 'YYYY-MM-DD' date answers the generic "Please fill
 * out all required fields correctly.": the spec has no message for it, and "at least 18"
 * would mislead. A future date is under 18 and answers "You must be at least 18 years old".
 * Interest is optional; only a non-empty value outside Posts/People/Both is refused.
 */
export function validateSignup(
  fields: SignupPayload & { confirmPassword?: string },
  today: Date = new Date(),
): string | null {
  const m = Messages.signup
  if (!isValidName(fields.firstname)) return m.invalidFirstName
  if (!isValidName(fields.lastname)) return m.invalidLastName
  if (!isValidEmail(fields.email)) return m.invalidEmail
  if (!isValidPhoneNumber(fields.phoneNumber)) return m.invalidPhone
  if (!isValidPassword(fields.password)) return m.invalidPassword
  if (
    fields.confirmPassword !== undefined &&
    !passwordsMatch(fields.password, fields.confirmPassword)
  )
    return m.passwordsDoNotMatch
  const dateOfBirthProblem = checkDateOfBirth(fields.dateOfBirth, today)
  if (dateOfBirthProblem === 'invalid') return m.requiredFields
  if (dateOfBirthProblem !== null) return m.underage
  if (!isBlankInterest(fields.interest) && !isInterest(fields.interest)) return m.selectInterest
  if (fields.termsAgreed !== true) return m.agreeToTerms
  return null
}

/** The web form, confirm password included. */
export function validateSignupForm(form: SignupForm, today: Date = new Date()): string | null {
  return validateSignup(form, today)
}

/**
 * The server route: same rules and order, without confirm password. Fields are picked one
 * by one so a stray confirmPassword in a request body is ignored rather than checked.
 */
export function validateSignupPayload(
  payload: SignupPayload,
  today: Date = new Date(),
): string | null {
  const { firstname, lastname, email, phoneNumber, password, dateOfBirth } = payload
  const { interest, emailPreferences, termsAgreed } = payload
  return validateSignup(
    {
      firstname,
      lastname,
      email,
      phoneNumber,
      password,
      dateOfBirth,
      interest,
      emailPreferences,
      termsAgreed,
    },
    today,
  )
}

function isBlankInterest(interest: string | null | undefined): boolean {
  return interest === undefined || interest === null || interest === ''
}

export interface NormalizedSignup {
  firstname: string
  lastname: string
  email: string
  phoneNumber: string
  password: string
  dateOfBirth: string
  interest: Interest | null
  emailPreferences: boolean
  termsAgreed: boolean
}

/**
 * The stored form of a payload that passed `validateSignupPayload`: email trimmed and
 * lower-cased, phone as "(123) 456-7890", an empty interest as null, marketing off unless
 * ticked. Names are NFC-normalised so the same name is stored the same way.
 */
export function normalizeSignupPayload(payload: SignupPayload): NormalizedSignup {
  return {
    firstname: payload.firstname.normalize('NFC'),
    lastname: payload.lastname.normalize('NFC'),
    email: normalizeEmail(payload.email),
    phoneNumber: normalizePhoneNumber(payload.phoneNumber) ?? payload.phoneNumber.trim(),
    password: payload.password,
    dateOfBirth: payload.dateOfBirth,
    interest: isInterest(payload.interest) ? payload.interest : null,
    emailPreferences: payload.emailPreferences === true,
    termsAgreed: payload.termsAgreed,
  }
}
