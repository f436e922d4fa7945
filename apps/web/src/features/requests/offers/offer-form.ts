import type { OfferUnit } from '@marketplace/contracts/marketplace'
import { checkOffer, type CheckedOffer } from '@marketplace/contracts/validation'

/** The offer fields as typed: every one a string, all empty for "no offer". */
export interface OfferDraft {
  amount: string
  unit: OfferUnit
  note: string
  proposedTime: string
}

/**
 * The unit a post's terms suggest: its salary is free text, so "$20/hour", "20 per hr" or
 * "$15 hourly" read as per hour; anything else as a fixed price.
 */
export function unitOfSalary(salary: string | null | undefined): OfferUnit {
  return /(\/\s*h(ou)?r\b|per\s+h(ou)?r\b|hourly|an hour|\/h\b)/i.test(salary ?? '')
    ? 'hour'
    : 'fixed'
}

export const emptyOfferDraft = (unit: OfferUnit): OfferDraft => ({
  amount: '',
  unit,
  note: '',
  proposedTime: '',
})

/** Nothing typed but the unit: the request goes without an offer. */
export const isBlankDraft = (draft: OfferDraft) =>
  draft.amount.trim() === '' && draft.note.trim() === '' && draft.proposedTime.trim() === ''

/** The draft checked by the same rules as the server, with the same messages. */
export function readOfferDraft(draft: OfferDraft): { offer: CheckedOffer } | { error: string } {
  return checkOffer(draft)
}

/** The body the jobs service reads: the amount in the currency (two decimals at most). */
export const offerBody = (offer: CheckedOffer) => ({
  amount: offer.cents / 100,
  unit: offer.unit,
  ...(offer.note ? { note: offer.note } : {}),
  ...(offer.proposedTime ? { proposedTime: offer.proposedTime } : {}),
})
