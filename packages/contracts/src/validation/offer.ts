import {
  OFFER_MAX_AMOUNT,
  OFFER_MESSAGES,
  OFFER_NOTE_MAX_LENGTH,
  OFFER_TIME_MAX_LENGTH,
  isOfferUnit,
  type OfferUnit,
} from '../marketplace/offers'

/** An offer as a client sends it: the amount as a number, or as typed ("80.50"). */
export interface OfferInput {
  amount?: unknown
  unit?: unknown
  note?: unknown
  proposedTime?: unknown
}

/** A checked offer: the amount in cents, so sums and comparisons stay exact. */
export interface CheckedOffer {
  cents: number
  unit: OfferUnit
  note: string
  proposedTime: string
}

const AMOUNT = /^\d+(\.\d{1,2})?$/
const NUMBERISH = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/

/**
 * The amount in cents, or the message that says what is wrong with it: a number (or its
 * digits), more than 0, at most two decimals, at most OFFER_MAX_AMOUNT.
 */
export function checkOfferAmount(value: unknown): { cents: number } | { error: string } {
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (typeof value === 'number' ? !Number.isFinite(value) : !NUMBERISH.test(text)) {
    return { error: OFFER_MESSAGES.amountRequired }
  }
  const number = Number(text)
  if (!(number > 0)) return { error: OFFER_MESSAGES.amountPositive }
  if (number > OFFER_MAX_AMOUNT) return { error: OFFER_MESSAGES.amountTooLarge }
  if (!AMOUNT.test(text.replace(/^\+/, ''))) return { error: OFFER_MESSAGES.amountDecimals }
  return { cents: Math.round(number * 100) }
}

/** The first problem of an offer, or the offer checked; `unitFallback` when none was sent. */
export function checkOffer(
  input: OfferInput,
  unitFallback?: OfferUnit,
): { offer: CheckedOffer } | { error: string } {
  const amount = checkOfferAmount(input.amount)
  if ('error' in amount) return amount
  const unit = input.unit === undefined || input.unit === null ? unitFallback : input.unit
  if (!isOfferUnit(unit)) return { error: OFFER_MESSAGES.unitInvalid }
  const note = input.note === undefined || input.note === null ? '' : input.note
  if (typeof note !== 'string' || note.trim().length > OFFER_NOTE_MAX_LENGTH) {
    return { error: OFFER_MESSAGES.noteTooLong }
  }
  const time =
    input.proposedTime === undefined || input.proposedTime === null ? '' : input.proposedTime
  if (typeof time !== 'string' || time.trim().length > OFFER_TIME_MAX_LENGTH) {
    return { error: OFFER_MESSAGES.timeTooLong }
  }
  return { offer: { cents: amount.cents, unit, note: note.trim(), proposedTime: time.trim() } }
}
