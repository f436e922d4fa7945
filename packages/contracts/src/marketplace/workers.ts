import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/**
 * Worker contact visibility: public, everyone sees the contacts;
 * hidden, only people on whose post the worker made a request see them.
 */
export const CONTACT_VISIBILITIES = ['public', 'hidden'] as const
export const ContactVisibilitySchema = literalUnion(CONTACT_VISIBILITIES)
export type ContactVisibility = Static<typeof ContactVisibilitySchema>
export const isContactVisibility = (value: unknown): value is ContactVisibility =>
  isOneOf(CONTACT_VISIBILITIES, value)

/**
 * Visibility used when a profile has no contacts yet to take it from. The product does not say;
 * we default to hidden, as posts default their location and contact to private.
 */
export const DEFAULT_CONTACT_VISIBILITY: ContactVisibility = 'hidden'
