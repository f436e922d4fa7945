import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import type { JobsFeedAnswer } from '@marketplace/contracts/api'
import { App } from '@/app/App'
import { preloadRoute } from '@/app/router'
import { createStore, type AppStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import { startAnalytics } from '@/lib/analytics'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import { installErrorReporting } from '@/lib/client-errors'
import { takeEarlyFirstFeedPage } from '@/lib/early-session'
import { readPersistFlag } from '@/lib/persist'
import { readFirstFeedPage } from '@/lib/first-feed-page'
import { restoreSession } from '@/lib/session-restore'

// The app, started by main.tsx once the page has painted. First, so errors while the app
// starts are reported too.
startAnalytics()
installErrorReporting()

const store = createStore()
const mayBeSignedIn = readPersistFlag()

// Before the first render, side by side (issue 22): the route's page chunks, instead of
// after the first render asks for them; with "Keep me signed in", the session (the renewal
// index.html started with the page, lib/session-restore), so the first render is the
// signed-in page rather than "Loading..."; and the configuration.
const session = mayBeSignedIn ? restoreSession(store) : Promise.resolve()
const beforeFirstRender: Array<Promise<unknown>> = [
  loadAppConfig(),
  preloadRoute(window.location.pathname),
  session,
]

if (window.location.pathname === '/') {
  const firstPage = mayBeSignedIn ? null : readFirstFeedPage()
  const earlyPage = mayBeSignedIn ? takeEarlyFirstFeedPage() : null
  if (firstPage) {
    // The gateway put the first feed page into the HTML (signed out only): its cards are on
    // screen, so React's first render shows the same posts from that answer, rather than an
    // outline and a second request for the feed.
    beforeFirstRender.push(seedFeed(store, Promise.resolve(firstPage)))
  } else if (earlyPage) {
    // Signed in: index.html asked for the first page with the renewal's token. It seeds the
    // feed once the app holds that session, so the first render shows the user's feed.
    const answer = Promise.all([earlyPage, session]).then(([page]) =>
      page?.status === 200 && isFeedAnswer(page.body) && selectIsLoggedIn(store.getState())
        ? page.body
        : null,
    )
    beforeFirstRender.push(seedFeed(store, answer))
  } else if (!mayBeSignedIn) {
    // Signed out (no session to renew first), the first feed page is fetched now too, as the
    // page will ask for it (feed-api's defaults: page 1, newest first): the browser hands
    // that request this preloaded answer, one round trip sooner (issue 22, LCP). A link rather
    // than the feed's own query, which would pull the feed's code into the entry script.
    const preload = document.createElement('link')
    preload.rel = 'preload'
    preload.as = 'fetch'
    preload.crossOrigin = 'use-credentials'
    preload.href = '/api/jobs?page=1&sort=desc'
    document.head.append(preload)
  }
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

// The first render as a transition: React then renders in slices of a few milliseconds and
// lets the browser answer input between them, instead of one long task (issue 22, total
// blocking time); the shell stays on screen until the render is done. Whatever failed
// before it, the app renders: each part has its own way to recover (the lazy route, the
// feed's own request, App's restore).
void Promise.allSettled(beforeFirstRender).then(() => {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => {
    root.render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    )
  })
})
