import { APP_ROUTE_PATTERNS } from '@marketplace/contracts/marketplace'
import { paths } from './paths'

/** Every route string of `paths` (the builders of concrete addresses left out). */
function routesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(routesOf)
  return []
}

// Product analytics count page views only under the app's own routes (contracts'
// APP_ROUTE_PATTERNS): a page added here must be added there, or its views are not counted.
describe('the app’s routes', () => {
  it('are the route patterns the contracts declare', () => {
    expect(routesOf(paths).sort()).toEqual([...APP_ROUTE_PATTERNS].sort())
  })
})
