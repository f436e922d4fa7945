import { Value } from '@sinclair/typebox/value'
import { Messages } from './messages'
import {
  normalizeSignupPayload,
  SignupPayloadSchema,
  validateSignup,
  validateSignupForm,
  validateSignupPayload,
  type SignupForm,
} from './signup'

const today = new Date('2024-06-15T12:00:00Z')

/** A copy of `value` without `keys` (rest destructuring would leave unused bindings). */
function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy = { ...value }
  for (const key of keys) delete copy[key]
  return copy
}

const valid: SignupForm = {
  firstname: 'Jean-Luc',
  lastname: 'Picard',
  email: ' Jean-Luc.Picard@Example.com ',
  phoneNumber: '(123) 456-7890',
  password: 'Enterprise1!',
  confirmPassword: 'Enterprise1!',
  dateOfBirth: '2006-06-15',
  interest: '',
  emailPreferences: false,
  termsAgreed: true,
}

describe('validateSignup', () => {
  it('accepts a valid form', () => {
    expect(validateSignup(valid, today)).toBeNull()
  })

  it.each([
    ['first name', { firstname: '-Jean' }, Messages.signup.invalidFirstName],
    ['last name', { lastname: 'P1card' }, Messages.signup.invalidLastName],
    ['email', { email: 'picard@enterprise' }, Messages.signup.invalidEmail],
    ['phone', { phoneNumber: '456-7890' }, Messages.signup.invalidPhone],
    [
      'password',
      { password: 'enterprise', confirmPassword: 'enterprise' },
      Messages.signup.invalidPassword,
    ],
    ['confirm password', { confirmPassword: 'Enterprise2!' }, Messages.signup.passwordsDoNotMatch],
    ['age', { dateOfBirth: '2006-06-16' }, Messages.signup.underage],
    ['future date of birth', { dateOfBirth: '2030-01-01' }, Messages.signup.underage],
    ['interest', { interest: 'Jobs' }, Messages.signup.selectInterest],
    ['terms agreement', { termsAgreed: false }, Messages.signup.agreeToTerms],
  ] as const)('reports an invalid %s with its own message', (_rule, change, message) => {
    expect(validateSignup({ ...valid, ...change }, today)).toBe(message)
  })

  it('reports an empty or malformed date of birth with the generic message', () => {
    expect(validateSignup({ ...valid, dateOfBirth: '' }, today)).toBe(
      Messages.signup.requiredFields,
    )
    expect(validateSignup({ ...valid, dateOfBirth: '2006-13-01' }, today)).toBe(
      Messages.signup.requiredFields,
    )
  })

  it('reports only the first failed rule, in the spec order', () => {
    const allWrong: SignupForm = {
      firstname: '',
      lastname: '',
      email: '',
      phoneNumber: '',
      password: '',
      confirmPassword: 'x',
      dateOfBirth: '2020-01-01',
      interest: 'nope',
      termsAgreed: false,
    }
    const expectedOrder = [
      ['firstname', 'Ann', Messages.signup.invalidFirstName],
      ['lastname', 'Lee', Messages.signup.invalidLastName],
      ['email', 'ann@lee.org', Messages.signup.invalidEmail],
      ['phoneNumber', '1234567890', Messages.signup.invalidPhone],
      ['password', 'Abcdef1!', Messages.signup.invalidPassword],
      ['confirmPassword', 'Abcdef1!', Messages.signup.passwordsDoNotMatch],
      ['dateOfBirth', '1990-01-01', Messages.signup.underage],
      ['interest', 'Both', Messages.signup.selectInterest],
      ['termsAgreed', true, Messages.signup.agreeToTerms],
    ] as const
    let form: SignupForm = allWrong
    for (const [field, fix, message] of expectedOrder) {
      expect(validateSignup(form, today)).toBe(message)
      form = { ...form, [field]: fix }
    }
    expect(validateSignup(form, today)).toBeNull()
  })

  it.each(['Posts', 'People', 'Both', '', null, undefined])(
    'accepts the interest %p',
    (interest) => {
      expect(validateSignup({ ...valid, interest }, today)).toBeNull()
    },
  )

  it('refuses an interest in the wrong case', () => {
    expect(validateSignup({ ...valid, interest: 'posts' }, today)).toBe(
      Messages.signup.selectInterest,
    )
  })

  it('does not require the marketing checkbox', () => {
    expect(validateSignup(without(valid, 'emailPreferences'), today)).toBeNull()
    expect(validateSignup({ ...valid, emailPreferences: true }, today)).toBeNull()
  })

  it('skips the confirm-password rule when no confirmation is given', () => {
    expect(validateSignup(without(valid, 'confirmPassword'), today)).toBeNull()
  })
})

describe('validateSignupForm', () => {
  it('checks the confirmation', () => {
    expect(validateSignupForm({ ...valid, confirmPassword: '' }, today)).toBe(
      Messages.signup.passwordsDoNotMatch,
    )
    expect(validateSignupForm(valid, today)).toBeNull()
  })
})

describe('validateSignupPayload', () => {
  it('applies the same rules without a confirmation', () => {
    const payload = without(valid, 'confirmPassword')
    expect(validateSignupPayload(payload, today)).toBeNull()
    expect(validateSignupPayload({ ...payload, termsAgreed: false }, today)).toBe(
      Messages.signup.agreeToTerms,
    )
  })

  it('ignores a stray confirmPassword in the request body', () => {
    const body = { ...valid, confirmPassword: 'something else' }
    expect(validateSignupPayload(body, today)).toBeNull()
  })
})

describe('SignupPayloadSchema', () => {
  const payload = without(valid, 'confirmPassword')

  it('accepts the signup payload', () => {
    expect(Value.Check(SignupPayloadSchema, payload)).toBe(true)
    expect(Value.Check(SignupPayloadSchema, { ...payload, interest: null })).toBe(true)
  })

  it('refuses a payload with a missing field or a wrong type', () => {
    expect(Value.Check(SignupPayloadSchema, without(payload, 'termsAgreed'))).toBe(false)
    expect(Value.Check(SignupPayloadSchema, { ...payload, termsAgreed: 'yes' })).toBe(false)
  })
})

describe('normalizeSignupPayload', () => {
  it('stores the canonical email, phone and interest', () => {
    const payload = without(valid, 'confirmPassword')
    expect(
      normalizeSignupPayload({ ...payload, phoneNumber: '+1 123.456.7890', interest: 'Posts' }),
    ).toEqual({
      firstname: 'Jean-Luc',
      lastname: 'Picard',
      email: 'jean-luc.picard@example.com',
      phoneNumber: '(123) 456-7890',
      password: 'Enterprise1!',
      dateOfBirth: '2006-06-15',
      interest: 'Posts',
      emailPreferences: false,
      termsAgreed: true,
    })
  })

  it('turns an empty interest into null and an absent marketing choice into false', () => {
    const normalized = normalizeSignupPayload(without(valid, 'confirmPassword', 'emailPreferences'))
    expect(normalized.interest).toBeNull()
    expect(normalized.emailPreferences).toBe(false)
  })
})
