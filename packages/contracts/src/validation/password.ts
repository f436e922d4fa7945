import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_REQUIRED_SYMBOLS,
} from '../marketplace/limits'
import { charLength } from './text'

// A lowercase letter, an uppercase letter, a digit and one of ! @ # $ %. Letters
// are Unicode letters (so "É" is an uppercase letter), as in the strength meter below.
const HAS_LOWERCASE = /\p{Ll}/u
const HAS_UPPERCASE = /\p{Lu}/u
const HAS_DIGIT = /\p{Nd}/u
// None of ! @ # $ % is special inside a character class, so they need no escaping.
const HAS_REQUIRED_SYMBOL = new RegExp(`[${PASSWORD_REQUIRED_SYMBOLS.join('')}]`)
const HAS_SYMBOL = /[^\p{L}\p{N}]/u

/**
 * 8 to 24 characters with a lowercase letter, an uppercase letter, a digit and one of
 * ! @ # $ %. Other characters are allowed besides; only those five symbols
 * satisfy the symbol rule.
 */
export function isValidPassword(password: string): boolean {
  const length = charLength(password)
  return (
    length >= PASSWORD_MIN_LENGTH &&
    length <= PASSWORD_MAX_LENGTH &&
    HAS_LOWERCASE.test(password) &&
    HAS_UPPERCASE.test(password) &&
    HAS_DIGIT.test(password) &&
    HAS_REQUIRED_SYMBOL.test(password)
  )
}

/** Confirm password equals password. */
export function passwordsMatch(password: string, confirmPassword: string): boolean {
  return password === confirmPassword
}

export type PasswordStrengthScore = 0 | 1 | 2 | 3 | 4 | 5
export type PasswordStrengthLabel = '' | 'Weak' | 'Medium' | 'Strong'

export interface PasswordStrength {
  score: PasswordStrengthScore
  /** '' for an empty password: the meter shows nothing. */
  label: PasswordStrengthLabel
}

/** Weak for 1-2, Medium for 3-4, Strong for 5, nothing for 0. */
export function passwordStrengthLabel(score: PasswordStrengthScore): PasswordStrengthLabel {
  if (score === 0) return ''
  if (score <= 2) return 'Weak'
  if (score <= 4) return 'Medium'
  return 'Strong'
}

/**
 * Strength meter: one point each for non-empty, length 8 or more, an uppercase
 * letter, a digit, and a symbol (any character that is neither a letter nor a digit, not
 * only ! @ # $ %). It is a hint, not the rule: a lowercase letter earns no point.
 */
export function passwordStrength(password: string): PasswordStrength {
  const points = [
    password.length > 0,
    charLength(password) >= PASSWORD_MIN_LENGTH,
    HAS_UPPERCASE.test(password),
    HAS_DIGIT.test(password),
    HAS_SYMBOL.test(password),
  ].filter(Boolean).length
  const score = points as PasswordStrengthScore
  return { score, label: passwordStrengthLabel(score) }
}
