import { EMAIL_MAX_LENGTH, PHONE_DIGITS } from '../marketplace/limits'
import { isContactOption, type ContactOption } from '../marketplace/options'
import { isValidEmail, normalizeEmail } from './email'
import { Messages } from './messages'
import { charLength, isBlank } from './text'
import { formatPhoneNumber } from './phone'

/**
 * A post's contact is a method (one of the product's contact options, what the feed's
 * contact filter filters on) and an optional value: how the poster is reached by that method.
 * The value is optional because the product's documented create body has only the method:
 * a client written from that contract must still be able to post, and a poster without a
 * value shares it in the conversation. When the owner hides the contact, the method and the
 * value are both private, like the location (docs/posts.md). These rules run in the post
 * forms and in the jobs service, so both give the same message.
 */
export type ContactValueKind = 'email' | 'phone' | 'handle' | 'text'

export const CONTACT_VALUE_KINDS: Readonly<Record<ContactOption, ContactValueKind>> = {
  Email: 'email',
  Phone: 'phone',
  WhatsApp: 'phone',
  Telegram: 'phone',
  Discord: 'handle',
  Instagram: 'handle',
  'X(Twitter)': 'handle',
  Others: 'text',
}

/** "Others": free text, so someone can write "Signal: ask in the conversation first". */
export const CONTACT_TEXT_MAX_LENGTH = 100
export const CONTACT_HANDLE_MIN_LENGTH = 2
export const CONTACT_HANDLE_MAX_LENGTH = 32

// Discord's, Instagram's and X's usernames all fit in this: letters, digits, _ and . (X allows
// no dot, Discord no capitals; one rule for the three keeps the message simple and the form
// forgiving). A leading @ is how people write handles, so it is accepted and not stored.
const HANDLE_PATTERN = new RegExp(
  `^[A-Za-z0-9_.]{${CONTACT_HANDLE_MIN_LENGTH},${CONTACT_HANDLE_MAX_LENGTH}}$`,
)
// What people type around a phone number's digits.
const PHONE_SEPARATORS = /[\s.()-]/g

/** The value's kind for a contact method, or null for no method or one not in the list. */
export function contactValueKind(method: string | null | undefined): ContactValueKind | null {
  return isContactOption(method) ? CONTACT_VALUE_KINDS[method] : null
}

/** The 10 digits of a phone number typed with spaces, dashes, dots or parentheses (and an optional +1), else null. */
export function phoneDigits(input: string): string | null {
  const compact = input.trim().replace(PHONE_SEPARATORS, '')
  const national = /^\+?1\d{10}$/.test(compact) ? compact.replace(/^\+?1/, '') : compact
  return new RegExp(`^\\d{${PHONE_DIGITS}}$`).test(national) ? national : null
}

function handleOf(input: string): string {
  return input.trim().replace(/^@/, '')
}

/** The message for a missing or wrong value of this method. */
export function contactValueMessage(method: ContactOption): string {
  switch (CONTACT_VALUE_KINDS[method]) {
    case 'email':
      return Messages.contactValue.email
    case 'phone':
      return Messages.contactValue.phone(method)
    case 'handle':
      return Messages.contactValue.handle(
        method,
        CONTACT_HANDLE_MIN_LENGTH,
        CONTACT_HANDLE_MAX_LENGTH,
      )
    case 'text':
      return Messages.contactValue.text(CONTACT_TEXT_MAX_LENGTH)
  }
}

/**
 * null when `value` suits `method`, else the message. An empty value always passes (the
 * value is optional); a value without a method never does. A method outside the list is the
 * contact option rule's business (`Messages.post.invalidContact`), not this one's.
 */
export function checkContactValue(
  method: string | null | undefined,
  value: string | null | undefined,
): string | null {
  if (isBlank(method)) return isBlank(value) ? null : Messages.contactValue.withoutMethod
  if (!isContactOption(method)) return null
  if (isBlank(value)) return null
  const text = (value ?? '').trim()
  const valid = {
    email: () => isValidEmail(text),
    phone: () => phoneDigits(text) !== null,
    handle: () => HANDLE_PATTERN.test(handleOf(text)),
    text: () => charLength(text) <= CONTACT_TEXT_MAX_LENGTH,
  }[CONTACT_VALUE_KINDS[method]]()
  return valid ? null : contactValueMessage(method)
}

/**
 * The stored form of a value `checkContactValue` accepted: an e-mail address in lower case,
 * a phone number's 10 digits, a handle without its @, the text trimmed; '' for none.
 */
export function normalizeContactValue(
  method: string | null | undefined,
  value: string | null | undefined,
): string {
  const text = (value ?? '').trim()
  if (text === '') return ''
  switch (contactValueKind(method)) {
    case 'email':
      return normalizeEmail(text)
    case 'phone':
      return phoneDigits(text) ?? text
    case 'handle':
      return handleOf(text)
    default:
      return text
  }
}

/** How a stored value reads: "(555) 123-4567", "@handle", the address or the text. */
export function formatContactValue(method: string | null | undefined, value: string): string {
  switch (contactValueKind(method)) {
    case 'phone':
      return formatPhoneNumber(value)
    case 'handle':
      return `@${value}`
    default:
      return value
  }
}

/** The value field of the post forms, per method: its label, placeholder and keyboard. */
export interface ContactValueField {
  label: string
  placeholder: string
  inputMode: 'email' | 'tel' | 'text'
  maxLength: number
}

export function contactValueField(method: string | null | undefined): ContactValueField {
  switch (contactValueKind(method)) {
    case 'email':
      return {
        label: 'E-mail address',
        placeholder: 'name@example.com',
        inputMode: 'email',
        maxLength: EMAIL_MAX_LENGTH,
      }
    case 'phone':
      return {
        label: `${method} number`,
        placeholder: '(555) 123-4567',
        inputMode: 'tel',
        maxLength: 20,
      }
    case 'handle':
      return {
        label: `${method} handle`,
        placeholder: '@yourname',
        inputMode: 'text',
        maxLength: CONTACT_HANDLE_MAX_LENGTH + 1,
      }
    default:
      return {
        label: 'How to reach you',
        placeholder: 'e.g. Signal: @yourname',
        inputMode: 'text',
        maxLength: CONTACT_TEXT_MAX_LENGTH,
      }
  }
}
