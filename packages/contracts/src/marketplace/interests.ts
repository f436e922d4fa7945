import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/** Optional "Interested in" choice at sign-up. */
export const INTERESTS = ['Posts', 'People', 'Both'] as const
export const InterestSchema = literalUnion(INTERESTS)
export type Interest = Static<typeof InterestSchema>
export const isInterest = (value: unknown): value is Interest => isOneOf(INTERESTS, value)
