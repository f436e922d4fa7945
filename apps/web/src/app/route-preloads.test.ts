import { ROUTE_MODULES } from '../../build/route-preloads'
import { pagesOf, routes } from '@/app/router'

// The build names each address's page chunks for the gateway to preload with its HTML
// (build/route-preloads.ts); the router's routes are the truth about what each
// address renders, so the two must agree.

/** The module a page's chunk imports, as its source path ('src/...'). */
function moduleOf(chunk: () => unknown): string {
  const specifier = /["'](@\/[^"']+)["']/.exec(chunk.toString())?.[1]
  return specifier ? specifier.replace(/^@\//, 'src/') : '?'
}
const withoutExtension = (file: string) => file.replace(/\.tsx?$/, '')

/** Every address a route names with a path of its own (no parameters, no catch-all). */
function addressesOf(list: Array<{ path?: string; children?: unknown[] }>): string[] {
  return list.flatMap((route) => [
    ...(route.path && !/[:*]/.test(route.path) ? [route.path] : []),
    ...addressesOf((route.children ?? []) as Array<{ path?: string; children?: unknown[] }>),
  ])
}

describe('the page chunks each address preloads with its HTML', () => {
  it.each(Object.entries(ROUTE_MODULES))('%s: the pages its route renders', (address, modules) => {
    // On / boot also seeds the first feed page (not a page of the route).
    const pages = modules.filter((module) => !module.endsWith('first-feed-page.ts'))
    expect(pagesOf(address).map((page) => moduleOf(page.chunk))).toEqual(
      pages.map(withoutExtension),
    )
  })

  it("names every address of the router's routes", () => {
    const missing = addressesOf(routes).filter((address) => !(address in ROUTE_MODULES))
    expect(missing).toEqual([])
  })
})
