import { Type, type Static } from '@sinclair/typebox'
import { Messages } from './messages'
import { isValidName } from './names'
import { isValidPassword, passwordsMatch } from './password'
import { isValidPhoneNumber } from './phone'

/**
 * The account form has one Name field: split on whitespace, the first word is the first
 * name and the rest the last name. "Mary Ann Smith" gives "Mary" and "Ann Smith".
 */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/).filter(Boolean)
  return { firstName, lastName: rest.join(' ') }
}

/**
 * Body of PUT /api/users/{id}. Email is never editable, so the schema
 * refuses any field besides these three instead of silently ignoring an email.
 */
export const AccountUpdatePayloadSchema = Type.Object(
  { firstName: Type.String(), lastName: Type.String(), phoneNumber: Type.String() },
  { additionalProperties: false },
)
export type AccountUpdatePayload = Static<typeof AccountUpdatePayloadSchema>

/** At most this many characters in an edited last name of several words ("Ann Smith"). */
export const ACCOUNT_LAST_NAME_MAX_LENGTH = 64

/**
 * A last name as the account form makes it: everything after the first word of the Name
 * field, so "Mary Ann Smith" gives "Ann Smith". Each word follows the signup rule for a name
 * (a letter, then letters or hyphens), separated by single spaces.
 */
export function isValidAccountLastName(lastName: string): boolean {
  return lastName.length <= ACCOUNT_LAST_NAME_MAX_LENGTH && lastName.split(' ').every(isValidName)
}

/**
 * The first name and the phone keep the signup rules, so an edited account could also have
 * registered with them. The last name may be several words: the account form splits its one
 * Name field on whitespace, the first word being the first name and the rest the last name.
 */
export function validateAccountUpdate(update: AccountUpdatePayload): string | null {
  if (!isValidName(update.firstName)) return Messages.signup.invalidFirstName
  if (!isValidAccountLastName(update.lastName)) return Messages.signup.invalidLastName
  if (!isValidPhoneNumber(update.phoneNumber)) return Messages.signup.invalidPhone
  return null
}

export interface PasswordChangeFields {
  currentPassword?: string
  newPassword?: string
  confirmPassword?: string
}

/** A password change is attempted only when current, new and confirm are all filled. */
export function isPasswordChangeRequested(fields: PasswordChangeFields): boolean {
  return Boolean(fields.currentPassword && fields.newPassword && fields.confirmPassword)
}

/**
 * New password must equal its confirmation, else "New passwords do not match";
 * checked whenever either is typed, so a forgotten confirmation is reported rather than the
 * change being silently skipped. When a change is attempted the new password must also pass
 * the signup rule (our decision: the same password policy everywhere), else "Invalid Password".
 */
export function validatePasswordChange(fields: PasswordChangeFields): string | null {
  if (!passwordsMatch(fields.newPassword ?? '', fields.confirmPassword ?? '')) {
    return Messages.account.newPasswordsDoNotMatch
  }
  if (isPasswordChangeRequested(fields) && !isValidPassword(fields.newPassword ?? '')) {
    return Messages.signup.invalidPassword
  }
  return null
}

/** The account form while editing; email is shown read-only and not part of it. */
export interface AccountForm extends PasswordChangeFields {
  name: string
  phoneNumber: string
}

/**
 * First failed rule of the account form: a first and a last name (one word alone is not a
 * full name, and is told so rather than called an invalid last name), the names, the phone,
 * then the password change.
 */
export function validateAccountForm(form: AccountForm): string | null {
  const { firstName, lastName } = splitFullName(form.name)
  if (firstName !== '' && lastName === '') return Messages.account.fullNameRequired
  return (
    validateAccountUpdate({ firstName, lastName, phoneNumber: form.phoneNumber }) ??
    validatePasswordChange(form)
  )
}

/** Body of POST /api/auth/change-password. */
export const ChangePasswordPayloadSchema = Type.Object({
  oldPassword: Type.String({ minLength: 1 }),
  newPassword: Type.String(),
})
export type ChangePasswordPayload = Static<typeof ChangePasswordPayloadSchema>

/** The server's check: the new password follows the signup rule. */
export function validateChangePasswordPayload(payload: ChangePasswordPayload): string | null {
  if (payload.oldPassword === '') return Messages.signup.requiredFields
  return isValidPassword(payload.newPassword) ? null : Messages.signup.invalidPassword
}
