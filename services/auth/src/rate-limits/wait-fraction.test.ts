import { waitFraction } from './rate-limits'

describe('waitFraction (sliding-window estimate)', () => {
  it('waits for the previous window to fade when the current one fits', () => {
    // 10 points, 10 hits last window, 5 now, halfway: estimate 10 * 0.5 + 5 = 10 (full).
    // It fits again when 10 * (1 - t) + 5 <= 10, at t = 0.5: already there.
    expect(waitFraction(10, 5, 10, 0.5)).toBe(0)
    // At a quarter: 10 * 0.75 + 5 = 12.5 > 10; fits at t = 0.5, a quarter window later.
    expect(waitFraction(10, 5, 10, 0.25)).toBeCloseTo(0.25)
  })

  it('waits past the end of the window when the current one alone is over budget', () => {
    // 11 hits now with 10 points, at 0.25: the rest of this window (0.75) and then until
    // 11 * (1 - t) <= 10 in the next, t = 1/11.
    expect(waitFraction(0, 11, 10, 0.25)).toBeCloseTo(0.75 + 1 / 11)
  })
})
