import { Type, type Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/**
 * Offers on requests (docs/post-requests.md, "Offers"): a worker's price for a post, the
 * owner's one counter-offer, and the amount both agreed on once the request is accepted.
 * A post's salary is free text ("$80", "$20/hour"), so an offer says its own unit; the web
 * app preselects "per hour" when the post's salary reads as hourly.
 */
export const OFFER_UNITS = ['fixed', 'hour'] as const
export const OfferUnitSchema = literalUnion(OFFER_UNITS)
export type OfferUnit = Static<typeof OfferUnitSchema>
export const isOfferUnit = (value: unknown): value is OfferUnit => isOneOf(OFFER_UNITS, value)

/** A sane ceiling: more than any short job pays, small enough to catch a slipped key. */
export const OFFER_MAX_AMOUNT = 100_000
export const OFFER_NOTE_MAX_LENGTH = 500
export const OFFER_TIME_MAX_LENGTH = 100

/** What a worker's counter-offer answer may be. */
export const COUNTER_ANSWERS = ['accepted', 'declined'] as const
export type CounterAnswer = (typeof COUNTER_ANSWERS)[number]
export const isCounterAnswer = (value: unknown): value is CounterAnswer =>
  isOneOf(COUNTER_ANSWERS, value)

/** Where a counter-offer stands. */
export const COUNTER_STATES = ['pending', 'accepted', 'declined'] as const
export const CounterStateSchema = literalUnion(COUNTER_STATES)
export type CounterState = Static<typeof CounterStateSchema>

/** An amount with its unit, as every answer and event carries it. */
export const OfferAmountSchema = Type.Object(
  {
    amount: Type.Number({
      description: 'In the currency of the post, two decimals at most',
      examples: [80],
    }),
    unit: OfferUnitSchema,
  },
  { additionalProperties: false },
)
export type OfferAmount = Static<typeof OfferAmountSchema>

/** "$80" or "$20.50/hour": how the product shows an amount. */
export function formatOfferAmount({ amount, unit }: OfferAmount): string {
  const money = Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`
  return unit === 'hour' ? `${money}/hour` : money
}

/** The product's copy about offers, shared by the web app and the jobs service. */
export const OFFER_MESSAGES = {
  amountRequired: 'Enter the amount as a number, like 80 or 80.50',
  amountPositive: 'The amount must be more than 0',
  amountDecimals: 'The amount can have at most two decimals (cents)',
  amountTooLarge: `The amount can be at most $${OFFER_MAX_AMOUNT.toLocaleString('en-US')}`,
  unitInvalid: 'Choose a fixed price or a price per hour',
  noteTooLong: `The note can be at most ${OFFER_NOTE_MAX_LENGTH} characters`,
  timeTooLong: `The proposed time can be at most ${OFFER_TIME_MAX_LENGTH} characters`,
  counterTwice: 'You have already made a counter-offer on this request',
  counterNotPending: 'Only a pending request can get a counter-offer',
  noCounterWaiting: 'There is no counter-offer waiting for your answer',
  counterAnswerInvalid: 'Answer must be accepted or declined',
} as const

/** System lines of a request's conversation, and the notices of each step. */
export const offerLines = {
  offered: (name: string, terms: OfferAmount) => `${name} offered ${formatOfferAmount(terms)}`,
  countered: (terms: OfferAmount) =>
    `The post owner made a counter-offer: ${formatOfferAmount(terms)}`,
  counterAccepted: (name: string, terms: OfferAmount) =>
    `${name} accepted the counter-offer of ${formatOfferAmount(terms)}`,
  counterDeclined: (name: string, terms: OfferAmount) =>
    `${name} declined the counter-offer of ${formatOfferAmount(terms)}`,
  agreed: (terms: OfferAmount) => `Request accepted. Agreed amount: ${formatOfferAmount(terms)}`,
}
