import type { JobsFeedAnswer } from '@marketplace/contracts/api'
import { preloadRoute } from '@/app/router'
import type { AppStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import { takeEarlyFirstFeedPage } from '@/lib/early-session'
import { readFirstFeedPage } from '@/lib/first-feed-page'
import { readPersistFlag } from '@/lib/persist'
import { restoreSession } from '@/lib/session-restore'

/**
 * What the app waits for before its first render (boot.tsx), side by side: the
 * configuration; the route's page chunks, instead of after the first render asks for them;
 * with "Keep me signed in", the session (the renewal index.html started with the page,
 * lib/session-restore), so the first render is the signed-in page rather than "Loading...";
 * and on / the feed's first page when the HTML or index.html's script brought it. Resolves
 * when each is done or failed: each part has its own way to recover (the lazy route, the
 * feed's own request, App's restore).
 */
export async function beforeFirstRender(store: AppStore, pathname: string): Promise<void> {
  const mayBeSignedIn = readPersistFlag()
  const session = mayBeSignedIn ? restoreSession(store) : Promise.resolve()
  const parts: Array<Promise<unknown>> = [loadAppConfig(), preloadRoute(pathname), session]

  // Only the home page's default feed: a query names another (a saved search's link, a shared
  // address), which the feed asks for itself once the page has read it (use-feed-url-state).
  if (pathname === '/' && window.location.search.length <= 1) {
    const firstPage = mayBeSignedIn ? null : readFirstFeedPage()
    const earlyPage = mayBeSignedIn ? takeEarlyFirstFeedPage() : null
    if (firstPage) {
      // The gateway put the first feed page into the HTML (signed out only): its cards are
      // on screen, so React's first render shows the same posts from that answer, rather
      // than an outline and a second request for the feed.
      parts.push(seedFeed(store, Promise.resolve(firstPage)))
    } else if (earlyPage) {
      // Signed in: index.html asked for the first page with the renewal's token. It seeds
      // the feed once the app holds that session, so the first render shows the user's feed.
      const answer = Promise.all([earlyPage, session]).then(([page]) =>
        page?.status === 200 && isFeedAnswer(page.body) && selectIsLoggedIn(store.getState())
          ? page.body
          : null,
      )
      parts.push(seedFeed(store, answer))
    } else if (!mayBeSignedIn) {
      // Signed out (no session to renew first), the first feed page is fetched now too, as
      // the page will ask for it (feed-api's defaults: page 1, newest first): the browser
      // hands that request this preloaded answer, one round trip sooner. A link rather than
      // the feed's own query, which would pull the feed's code into the entry script.
      const preload = document.createElement('link')
      preload.rel = 'preload'
      preload.as = 'fetch'
      preload.crossOrigin = 'use-credentials'
      preload.href = '/api/jobs?page=1&sort=desc'
      document.head.append(preload)
    }
  }
  await Promise.allSettled(parts)
}

/** The feed's first query from that answer; without one, the page asks for it itself. */
function seedFeed(store: AppStore, answer: Promise<JobsFeedAnswer | null>): Promise<void> {
  return Promise.all([answer, import('@/features/feed/first-feed-page')])
    .then(([page, seed]) => (page ? seed.seedFirstFeedPage(store, page) : undefined))
    .catch(() => undefined) // the feed's own request takes over
}

function isFeedAnswer(body: unknown): body is JobsFeedAnswer {
  return typeof body === 'object' && body !== null && Array.isArray((body as JobsFeedAnswer).jobs)
}
