import { scriptJson } from './html-text'

/**
 * A page whose HTML paints content of its own (the feed's cards, a page's fixed heading and
 * first section) has the web app's scripts fetched after that first paint, not with the
 * HTML.
 *
 * Why: Lighthouse counts the largest contentful paint as waiting for every request that
 * started before it, whatever its priority, except a low-priority picture. With the app's
 * chunks preloaded in the head, the settings page's heading and hint, painted with the
 * HTML, counted as painted after some thirty scripts had come over a phone's slow link:
 * 1.5-1.9 s instead of about 1 s. On a real phone too those scripts share the link with
 * what paints.
 *
 * So the page's `<link rel="modulepreload">`s leave its head:
 * - on a page with a fixed heading, their files, followed by the page's own chunks and
 *   stylesheets (routes/route-preloads), go into a list the web app reads (apps/web
 *   lib/chunks-after-first-paint): right after the first paint it asks for all of them at
 *   once, so its start waits for no more round trips than with the links;
 * - on the feed (routes/first-feed-page) they are only dropped: the app imports its steps one
 *   after the other after the paint (apps/web boot.tsx) and its chunks come as each step asks.
 *   Measured both ways on the signed-in feed (docs/benchmarks.md), the list made the blocking
 *   time longer (median 483 against 310 ms of 5 runs): some forty requests at once compete
 *   with the session's renewal and the user's feed, which that page waits for.
 */

/** The id of the `<script type="application/json">` holding the list (apps/web main.tsx). */
export const CHUNKS_AFTER_FIRST_PAINT_ID = 'chunks-after-first-paint'

/** The app's chunks index.html preloads (apps/web build/preload-boot-chunks). */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>\s*/g
const HREF = /\shref="([^"]+)"/

/** index.html without its module preloads. */
export function withoutModulePreloads(html: string): string {
  return html.replace(MODULE_PRELOAD, '')
}

/**
 * index.html without its module preloads, and with the list of their files and `pageFiles`
 * (addresses such as `/assets/AccountPage-1.js`) at the end of its head; nothing to list,
 * no list.
 */
export function withChunksAfterFirstPaint(html: string, pageFiles: readonly string[]): string {
  const files: string[] = []
  const withoutPreloads = html.replace(MODULE_PRELOAD, (link) => {
    const href = HREF.exec(link)?.[1]
    if (href) files.push(href)
    return ''
  })
  for (const file of pageFiles) if (!files.includes(file)) files.push(file)
  const end = withoutPreloads.indexOf('</head>')
  if (files.length === 0 || end < 0) return withoutPreloads
  const list = `<script type="application/json" id="${CHUNKS_AFTER_FIRST_PAINT_ID}">${scriptJson(files)}</script>\n`
  return withoutPreloads.slice(0, end) + list + withoutPreloads.slice(end)
}
