import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

// Issue 8's budget: the home route's initial JavaScript is at most 170 KB gzip, measured from
// the production build (turbo builds apps/web before these tests) by the same script that
// docs/benchmarks.md quotes.
describe('the web app bundle', () => {
  it('keeps the home route within its initial JavaScript budget', () => {
    const root = join(__dirname, '..', '..', '..')
    const output = execFileSync(
      process.execPath,
      [join(root, 'scripts', 'bench', 'web-bundle-size.mjs'), '--json'],
      { encoding: 'utf8' },
    )
    const result = JSON.parse(output) as { jsGzipKB: number; budgetKB: number; rows: unknown[] }
    expect(result.budgetKB).toBe(170)
    // The entry and the home page chunk at least: a manifest that lost them would measure 0.
    expect(result.rows.length).toBeGreaterThanOrEqual(2)
    expect(result.jsGzipKB).toBeGreaterThan(10)
    expect(result.jsGzipKB).toBeLessThanOrEqual(result.budgetKB)
  })
})
