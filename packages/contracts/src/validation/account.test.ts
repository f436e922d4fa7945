import { Value } from '@sinclair/typebox/value'
import {
  AccountUpdatePayloadSchema,
  isPasswordChangeRequested,
  splitFullName,
  validateAccountForm,
  validateAccountUpdate,
  validateChangePasswordPayload,
  validatePasswordChange,
} from './account'

describe('splitFullName', () => {
  it('takes the first word as first name and the rest as last name', () => {
    expect(splitFullName('Mary Ann Smith')).toEqual({ firstName: 'Mary', lastName: 'Ann Smith' })
  })

  it('splits on any whitespace and ignores leading and trailing blanks', () => {
    expect(splitFullName('  Jean-Luc \t  Picard  ')).toEqual({
      firstName: 'Jean-Luc',
      lastName: 'Picard',
    })
  })

  it('gives an empty last name for one word and empty names for nothing', () => {
    expect(splitFullName('Cher')).toEqual({ firstName: 'Cher', lastName: '' })
    expect(splitFullName('   ')).toEqual({ firstName: '', lastName: '' })
  })
})

describe('validateAccountUpdate', () => {
  const valid = { firstName: 'Mary', lastName: 'Smith', phoneNumber: '(123) 456-7890' }

  it('accepts valid names and phone', () => {
    expect(validateAccountUpdate(valid)).toBeNull()
  })

  it('keeps the signup rules for the first name and phone, and takes a last name of several words', () => {
    expect(validateAccountUpdate({ ...valid, firstName: '' })).toBe('Invalid First Name')
    expect(validateAccountUpdate({ ...valid, lastName: 'Ann Smith' })).toBeNull()
    expect(validateAccountUpdate({ ...valid, lastName: 'Ann  Smith' })).toBe('Invalid Last Name')
    expect(validateAccountUpdate({ ...valid, lastName: 'Ann Smith ' })).toBe('Invalid Last Name')
    expect(validateAccountUpdate({ ...valid, lastName: "O'Brien" })).toBe('Invalid Last Name')
    expect(validateAccountUpdate({ ...valid, lastName: 'A'.repeat(25) })).toBe('Invalid Last Name')
    expect(validateAccountUpdate({ ...valid, lastName: Array(13).fill('Smith').join(' ') })).toBe(
      'Invalid Last Name',
    )
    expect(validateAccountUpdate({ ...valid, phoneNumber: '555' })).toBe('Invalid Phone Number')
  })
})

describe('AccountUpdatePayloadSchema (email is never editable)', () => {
  it('accepts the three editable fields', () => {
    expect(
      Value.Check(AccountUpdatePayloadSchema, {
        firstName: 'Mary',
        lastName: 'Smith',
        phoneNumber: '(123) 456-7890',
      }),
    ).toBe(true)
  })

  it('refuses an email in the body', () => {
    expect(
      Value.Check(AccountUpdatePayloadSchema, {
        firstName: 'Mary',
        lastName: 'Smith',
        phoneNumber: '(123) 456-7890',
        email: 'new@example.com',
      }),
    ).toBe(false)
  })
})

describe('isPasswordChangeRequested', () => {
  it('is true only when current, new and confirm are all filled', () => {
    expect(
      isPasswordChangeRequested({ currentPassword: 'a', newPassword: 'b', confirmPassword: 'b' }),
    ).toBe(true)
    expect(isPasswordChangeRequested({ newPassword: 'b', confirmPassword: 'b' })).toBe(false)
    expect(
      isPasswordChangeRequested({ currentPassword: 'a', newPassword: '', confirmPassword: '' }),
    ).toBe(false)
    expect(isPasswordChangeRequested({})).toBe(false)
  })
})

describe('validatePasswordChange', () => {
  it('accepts a matching, valid new password', () => {
    expect(
      validatePasswordChange({
        currentPassword: 'Old1!pass',
        newPassword: 'New1!pass',
        confirmPassword: 'New1!pass',
      }),
    ).toBeNull()
  })

  it('refuses a confirmation that differs', () => {
    expect(
      validatePasswordChange({
        currentPassword: 'Old1!pass',
        newPassword: 'New1!pass',
        confirmPassword: 'New1!pasS',
      }),
    ).toBe('New passwords do not match')
  })

  it('reports a missing confirmation instead of silently skipping the change', () => {
    expect(validatePasswordChange({ currentPassword: 'Old1!pass', newPassword: 'New1!pass' })).toBe(
      'New passwords do not match',
    )
  })

  it('passes when no password field is filled', () => {
    expect(validatePasswordChange({})).toBeNull()
    expect(
      validatePasswordChange({ currentPassword: '', newPassword: '', confirmPassword: '' }),
    ).toBeNull()
  })

  it('refuses a new password that breaks the signup rule', () => {
    expect(
      validatePasswordChange({
        currentPassword: 'Old1!pass',
        newPassword: 'short',
        confirmPassword: 'short',
      }),
    ).toBe('Invalid Password')
  })

  it('does not judge the new password when the change is not attempted', () => {
    expect(validatePasswordChange({ newPassword: 'short', confirmPassword: 'short' })).toBeNull()
  })
})

describe('validateAccountForm', () => {
  const valid = { name: 'Mary Smith', phoneNumber: '1234567890' }

  it('accepts a name and phone without a password change', () => {
    expect(validateAccountForm(valid)).toBeNull()
  })

  it('checks the split names first, then the phone, then the password change', () => {
    expect(validateAccountForm({ ...valid, name: 'Mary' })).toBe(
      'Enter your first and last name, like Mary Smith',
    )
    expect(validateAccountForm({ ...valid, name: 'Mary Ann Smith' })).toBeNull()
    expect(validateAccountForm({ ...valid, name: '  Mary   Ann  Smith-Jones ' })).toBeNull()
    expect(validateAccountForm({ ...valid, name: 'Mary Ann 3rd' })).toBe('Invalid Last Name')
    expect(validateAccountForm({ ...valid, name: '' })).toBe('Invalid First Name')
    expect(validateAccountForm({ ...valid, phoneNumber: '' })).toBe('Invalid Phone Number')
    expect(validateAccountForm({ ...valid, newPassword: 'a', confirmPassword: 'b' })).toBe(
      'New passwords do not match',
    )
  })
})

describe('validateChangePasswordPayload', () => {
  it('accepts an old password and a valid new one', () => {
    expect(validateChangePasswordPayload({ oldPassword: 'x', newPassword: 'New1!pass' })).toBeNull()
  })

  it('refuses an invalid new password or an empty old one', () => {
    expect(validateChangePasswordPayload({ oldPassword: 'x', newPassword: 'newpass' })).toBe(
      'Invalid Password',
    )
    expect(validateChangePasswordPayload({ oldPassword: '', newPassword: 'New1!pass' })).toBe(
      'Please fill out all required fields correctly.',
    )
  })
})
