import { fetchChunks, readChunksAfterFirstPaint } from '@/lib/chunks-after-first-paint'
import { FIRST_FEED_PAGE_ID } from '@/lib/first-feed-page'
import '@/styles/global.css'

/**
 * The entry: the stylesheet, then the app (boot.tsx). On / the gateway puts the feed's first
 * page into the HTML (its public cards only for a browser that may be signed in), and on a
 * settings page its heading and first section: that paints with the HTML and the stylesheet,
 * and the app's scripts are fetched and run after that first paint, from the list the gateway
 * put in the page (lib/chunks-after-first-paint). Left to itself, a browser that has the
 * scripts by then runs them first, and on a phone their evaluation and React's first render
 * hold the paint back by a second or more; on a slow link they would share its bandwidth
 * with what paints. Every other page has only the outline to show: its scripts are preloaded
 * by index.html (build/preload-boot-chunks) and start at once.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    // A tab opened in the background paints nothing until shown: it starts at once.
    if (document.visibilityState === 'hidden') return resolve()
    // A frame's animation callbacks run just before its paint; the task after it, after.
    requestAnimationFrame(() => setTimeout(resolve, 0))
  })
}

// Signed out the page holds the answer too; maybe signed in, only the public cards (the app
// shows the user's own page once the session is renewed).
const postsInTheHtml =
  document.getElementById(FIRST_FEED_PAGE_ID) !== null ||
  document.querySelector('#root article.card') !== null
const chunksAfterFirstPaint = readChunksAfterFirstPaint()
const paintsFirst = postsInTheHtml || chunksAfterFirstPaint !== null
void (paintsFirst ? afterFirstPaint() : Promise.resolve())
  .then(() => fetchChunks(chunksAfterFirstPaint ?? []))
  .then(() => import('@/boot'))
