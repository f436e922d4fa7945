import { reviewDeadline } from './review-deadline'

const HOUR = 60 * 60 * 1000
const due = Date.parse('2026-01-02T10:00:00.000Z')
const at = (offsetMs: number) => due + offsetMs

describe('reviewDeadline', () => {
  it('counts the whole hours left before the 24-hour promise', () => {
    expect(reviewDeadline('2026-01-02T10:00:00.000Z', at(-3.5 * HOUR))).toEqual({
      overdue: false,
      text: '3 h left',
    })
  })

  it('counts the hours past it once overdue', () => {
    expect(reviewDeadline('2026-01-02T10:00:00.000Z', at(2.2 * HOUR))).toEqual({
      overdue: true,
      text: 'overdue by 2 h',
    })
  })

  it('counts minutes under an hour, never "0 h"', () => {
    expect(reviewDeadline('2026-01-02T10:00:00.000Z', at(-20 * 60 * 1000)).text).toBe('20 min left')
    expect(reviewDeadline('2026-01-02T10:00:00.000Z', at(10 * 1000)).text).toBe('overdue by 1 min')
  })
})
