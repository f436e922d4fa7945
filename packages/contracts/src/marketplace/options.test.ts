import { Value } from '@sinclair/typebox/value'
import {
  CONTACT_OPTIONS,
  ContactOptionSchema,
  isContactOption,
  isPaymentOption,
  PAYMENT_OPTIONS,
  PaymentOptionSchema,
} from './options'

describe('payment options', () => {
  it('lists the eleven options in the spec order', () => {
    expect(PAYMENT_OPTIONS).toEqual([
      'Zelle',
      'Cash App',
      'Venmo',
      'Cash',
      'PayPal',
      'Bank Transfer',
      'Wire',
      'Crypto',
      'Check',
      'Direct Deposit',
      'Others',
    ])
  })

  it('has a schema and a guard that accept exactly those', () => {
    for (const option of PAYMENT_OPTIONS) {
      expect(Value.Check(PaymentOptionSchema, option)).toBe(true)
      expect(isPaymentOption(option)).toBe(true)
    }
    expect(Value.Check(PaymentOptionSchema, 'cash')).toBe(false)
    expect(isPaymentOption('Gold')).toBe(false)
    expect(isPaymentOption(undefined)).toBe(false)
  })

  it('has no dash in any option, so modify can split the payment text on it', () => {
    expect(PAYMENT_OPTIONS.some((option) => option.includes('-'))).toBe(false)
  })
})

describe('contact options', () => {
  it('lists the eight options in the spec order', () => {
    expect(CONTACT_OPTIONS).toEqual([
      'Email',
      'Phone',
      'Discord',
      'Instagram',
      'WhatsApp',
      'Telegram',
      'X(Twitter)',
      'Others',
    ])
  })

  it('has a schema and a guard that accept exactly those', () => {
    for (const option of CONTACT_OPTIONS) {
      expect(Value.Check(ContactOptionSchema, option)).toBe(true)
      expect(isContactOption(option)).toBe(true)
    }
    expect(Value.Check(ContactOptionSchema, 'Twitter')).toBe(false)
    expect(isContactOption('Pigeon')).toBe(false)
  })
})
