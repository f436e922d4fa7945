import { OFFER_MESSAGES, formatOfferAmount } from '../marketplace/offers'
import { checkOffer, checkOfferAmount } from './offer'

describe('offers: the amount, its unit, the note and the time', () => {
  it.each([
    [80, 8000],
    ['80', 8000],
    ['80.5', 8050],
    [' 80.50 ', 8050],
    [0.01, 1],
    [100_000, 10_000_000],
    [19.99, 1999],
  ])('reads %p as %p cents', (amount, cents) => {
    expect(checkOfferAmount(amount)).toEqual({ cents })
  })

  it.each([
    [undefined, OFFER_MESSAGES.amountRequired],
    [null, OFFER_MESSAGES.amountRequired],
    ['', OFFER_MESSAGES.amountRequired],
    ['$80', OFFER_MESSAGES.amountRequired],
    ['80 dollars', OFFER_MESSAGES.amountRequired],
    [Number.NaN, OFFER_MESSAGES.amountRequired],
    [Number.POSITIVE_INFINITY, OFFER_MESSAGES.amountRequired],
    [0, OFFER_MESSAGES.amountPositive],
    ['-1', OFFER_MESSAGES.amountPositive],
    [80.555, OFFER_MESSAGES.amountDecimals],
    [0.1 + 0.2, OFFER_MESSAGES.amountDecimals],
    ['1e3', OFFER_MESSAGES.amountDecimals],
    [100_000.01, OFFER_MESSAGES.amountTooLarge],
  ])('refuses %p: %s', (amount, error) => {
    expect(checkOfferAmount(amount)).toEqual({ error })
  })

  it('checks the unit, the note and the time, and falls back to a unit when none is sent', () => {
    expect(checkOffer({ amount: 50, unit: 'week' })).toEqual({ error: OFFER_MESSAGES.unitInvalid })
    expect(checkOffer({ amount: 50 })).toEqual({ error: OFFER_MESSAGES.unitInvalid })
    expect(checkOffer({ amount: 50 }, 'hour')).toEqual({
      offer: { cents: 5000, unit: 'hour', note: '', proposedTime: '' },
    })
    expect(checkOffer({ amount: 50, unit: 'fixed', note: 'x'.repeat(501) })).toEqual({
      error: OFFER_MESSAGES.noteTooLong,
    })
    expect(checkOffer({ amount: 50, unit: 'fixed', proposedTime: 't'.repeat(101) })).toEqual({
      error: OFFER_MESSAGES.timeTooLong,
    })
    expect(
      checkOffer({
        amount: 50,
        unit: 'fixed',
        note: ` ${'n'.repeat(500)} `,
        proposedTime: ' Sat ',
      }),
    ).toEqual({ offer: { cents: 5000, unit: 'fixed', note: 'n'.repeat(500), proposedTime: 'Sat' } })
  })

  it('shows an amount as the product does', () => {
    expect(formatOfferAmount({ amount: 80, unit: 'fixed' })).toBe('$80')
    expect(formatOfferAmount({ amount: 80.5, unit: 'fixed' })).toBe('$80.50')
    expect(formatOfferAmount({ amount: 20, unit: 'hour' })).toBe('$20/hour')
  })
})
