/**
 * The app's chunks a page asks for right after its first paint (main.tsx).
 *
 * A page whose HTML paints content of its own (the feed's cards, a settings page's heading and
 * first section) comes without the app's `<link rel="modulepreload">`s: the gateway lists
 * their files, and the page's own chunks and stylesheets, in a JSON script instead
 * (services/gateway routes/chunks-after-first-paint). Requests that start before the
 * largest paint share a phone's slow link with it, and Lighthouse counts each of them as
 * holding that paint back. Asked for all at once right after the paint, the app's start waits
 * for no more round trips than with the links in the HTML.
 */

/** The id the gateway gives the list (services/gateway routes/chunks-after-first-paint). */
export const CHUNKS_AFTER_FIRST_PAINT_ID = 'chunks-after-first-paint'

/** Only the build's own files: anything else in the list is ignored. */
const BUILT_FILE = /^\/assets\/[\w.-]+\.(?:js|css)$/

/**
 * Links added per task. Each `<link>` starts a request on the main thread (a fraction of a
 * millisecond on a phone, several with DevTools' tracing on, as in Lighthouse): thirty in one
 * task made a long one. A few per task keep each short.
 */
const LINKS_PER_TASK = 6

/** The list the gateway put in the page, or null when it put none. */
export function readChunksAfterFirstPaint(): string[] | null {
  const element = document.getElementById(CHUNKS_AFTER_FIRST_PAINT_ID)
  if (!element?.textContent) return null
  try {
    const files: unknown = JSON.parse(element.textContent)
    if (!Array.isArray(files)) return null
    return files.filter((file): file is string => typeof file === 'string' && BUILT_FILE.test(file))
  } catch {
    return null
  }
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Starts fetching each file as the HTML's links would have: a script as a module preload (the
 * app's imports then find it fetched), a stylesheet as a preload (applied when the page that
 * needs it loads). Resolves once every link is in the document.
 */
export async function fetchChunks(files: readonly string[]): Promise<void> {
  for (let start = 0; start < files.length; start += LINKS_PER_TASK) {
    if (start > 0) await nextTask()
    for (const file of files.slice(start, start + LINKS_PER_TASK)) {
      const link = document.createElement('link')
      if (file.endsWith('.css')) {
        link.rel = 'preload'
        link.setAttribute('as', 'style')
      } else {
        link.rel = 'modulepreload'
      }
      // As the build's own links and Vite's preloads: one CORS mode, so the later import or
      // stylesheet uses this response rather than asking again.
      link.crossOrigin = ''
      link.href = file
      document.head.append(link)
    }
  }
}
