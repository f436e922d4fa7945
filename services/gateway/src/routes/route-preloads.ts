import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { escapeHtml } from './html-text'

/** Written by the web app's build (apps/web build/route-preloads.ts); the static files skip dot folders. */
const ROUTE_PRELOADS_FILE = path.join('.vite', 'route-preloads.json')

type RoutePreloads = Record<
  string,
  { scripts?: string[]; styles?: string[]; heading?: unknown; section?: unknown }
>

/** A page's fixed text for its HTML: its heading, and maybe its first section's title and hint. */
export type PageOutline = { heading: string; section?: { title: string; hint: string } }

/** What the gateway knows of an address's page from the web app's build. */
export interface RoutePage {
  /** Its page chunks and their imports, as addresses (`/assets/...`). */
  scripts: string[]
  /** Its stylesheets, as addresses. */
  styles: string[]
  /** Its heading, and maybe its first section, where those are fixed text. */
  outline?: PageOutline
}

/**
 * Per address, what the web app's build lists for its page (one read of the list):
 * - the files it needs that index.html does not name: its page chunks, their imports and
 *   stylesheets. Without them in the HTML (or in the list the app asks for right after the
 *   first paint: routes/chunks-after-first-paint) the web app would ask for them only once its
 *   own scripts have loaded and run, one round trip more before the page renders. Files the
 *   build did not write are left out;
 * - its heading where it is fixed text (apps/web src/config/page-headings), and its first
 *   section's title and hint where those are fixed too: the gateway puts them in the page's
 *   HTML, so the page's largest text paints with the HTML rather than after the app's scripts
 *   have loaded and run (largest contentful paint on a phone).
 * No list, no pages.
 */
export async function readRoutePages(
  webDistDir: string,
  indexHtml: string,
): Promise<Map<string, RoutePage>> {
  let preloads: RoutePreloads
  try {
    const file = path.join(webDistDir, ROUTE_PRELOADS_FILE)
    preloads = JSON.parse(await readFile(file, 'utf8')) as RoutePreloads
  } catch {
    return new Map()
  }
  // A file the build did not write would be a 404 and an error in the browser's console.
  const onDisk = new Set<string>()
  const named = new Set(
    Object.values(preloads).flatMap((p) => [...(p.scripts ?? []), ...(p.styles ?? [])]),
  )
  for (const file of named) {
    if (typeof file !== 'string' || !/^assets\/[\w.-]+$/.test(file)) continue
    const found = await stat(path.join(webDistDir, file)).then(
      (s) => s.isFile(),
      () => false,
    )
    if (found) onDisk.add(file)
  }
  const fresh = (file: unknown): file is string =>
    typeof file === 'string' && onDisk.has(file) && !indexHtml.includes(`/${file}"`)
  const pages = new Map<string, RoutePage>()
  for (const [address, { scripts = [], styles = [], heading, section }] of Object.entries(
    preloads,
  )) {
    const page: RoutePage = {
      scripts: scripts.filter(fresh).map((file) => `/${file}`),
      styles: styles.filter(fresh).map((file) => `/${file}`),
    }
    if (isText(heading, MAX_HEADING)) {
      const fixedSection = sectionOf(section)
      page.outline = fixedSection ? { heading, section: fixedSection } : { heading }
    }
    pages.set(address, page)
  }
  return pages
}

/**
 * index.html with `<link>`s that fetch the page's files at the end of its head, at low priority
 * as index.html's own preloads (the outline's stylesheets go first). Nothing to fetch, the
 * HTML as it is.
 */
export function withPreloads(indexHtml: string, { scripts, styles }: RoutePage): string {
  const tags = [
    ...styles.map(
      (file) => `<link rel="preload" as="style" crossorigin href="${file}" fetchpriority="low">`,
    ),
    ...scripts.map(
      (file) => `<link rel="modulepreload" crossorigin href="${file}" fetchpriority="low">`,
    ),
  ]
  const end = indexHtml.indexOf('</head>')
  if (tags.length === 0 || end < 0) return indexHtml
  return `${indexHtml.slice(0, end)}${tags.join('\n')}\n${indexHtml.slice(end)}`
}

/** index.html's page outline, the feed's by default (apps/web index.html). */
const OUTLINE_START = '<!--page-outline-->'
const OUTLINE_END = '<!--/page-outline-->'
/** The longest sensible texts: the build writes them, but they go into HTML. */
const MAX_HEADING = 120
const MAX_HINT = 300

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max

function sectionOf(value: unknown): PageOutline['section'] {
  if (typeof value !== 'object' || value === null) return undefined
  const { title, hint } = value as Record<string, unknown>
  return isText(title, MAX_HEADING) && isText(hint, MAX_HINT) ? { title, hint } : undefined
}

/**
 * index.html with the page's heading in place of the feed's outline: an h1 as the page has it
 * (the app replaces it with the page itself on its first render) and under it either the
 * page's first section, its title and hint (index.html's `.shell-hint`: a step larger than the
 * page's, so the page's own is not a larger paint after it), or a line of outline. The texts are escaped: the build wrote them, but nothing
 * goes into HTML unescaped.
 */
export function withPageHeading(indexHtml: string, { heading, section }: PageOutline): string {
  const start = indexHtml.indexOf(OUTLINE_START)
  const end = indexHtml.indexOf(OUTLINE_END, start)
  if (start < 0 || end < 0) return indexHtml
  const under = section
    ? '<div class="card"><div class="card-body">' +
      `<h2>${escapeHtml(section.title)}</h2><p class="shell-hint">${escapeHtml(section.hint)}</p>` +
      '</div></div>'
    : '<div class="card" aria-hidden="true"><div class="card-body">' +
      '<span class="skeleton-line skeleton-title"></span><span class="skeleton-line skeleton-meta"></span>' +
      '</div></div>'
  const outline = `<h1 class="shell-heading">${escapeHtml(heading)}</h1>${under}`
  return indexHtml.slice(0, start) + outline + indexHtml.slice(end + OUTLINE_END.length)
}
