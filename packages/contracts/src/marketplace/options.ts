import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/** Payment options offered by the post form and the payment filter. */
export const PAYMENT_OPTIONS = [
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
] as const
export const PaymentOptionSchema = literalUnion(PAYMENT_OPTIONS)
export type PaymentOption = Static<typeof PaymentOptionSchema>
export const isPaymentOption = (value: unknown): value is PaymentOption =>
  isOneOf(PAYMENT_OPTIONS, value)

/** Contact options offered by the post form and the contact filter. */
export const CONTACT_OPTIONS = [
  'Email',
  'Phone',
  'Discord',
  'Instagram',
  'WhatsApp',
  'Telegram',
  'X(Twitter)',
  'Others',
] as const
export const ContactOptionSchema = literalUnion(CONTACT_OPTIONS)
export type ContactOption = Static<typeof ContactOptionSchema>
export const isContactOption = (value: unknown): value is ContactOption =>
  isOneOf(CONTACT_OPTIONS, value)
