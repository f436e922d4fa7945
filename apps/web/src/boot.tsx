import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { homePageLoaded } from '@/app/router'
import { createStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import { startAnalytics } from '@/lib/analytics'
import { installErrorReporting } from '@/lib/client-errors'
import { readPersistFlag } from '@/lib/persist'
import { readFirstFeedPage } from '@/lib/first-feed-page'

// The app, started by main.tsx once the page has painted. First, so errors while the app
// starts are reported too.
startAnalytics()
installErrorReporting()

const store = createStore()

// The home page's code starts loading now, beside the configuration, instead of after the
// first render asks for it (the router's lazy import then finds it loaded or under way).
let beforeFirstRender: Promise<unknown> = Promise.resolve()
if (window.location.pathname === '/') {
  const homePage = import('@/features/feed/HomePage')
  const signedOut = !readPersistFlag()
  const firstPage = signedOut ? readFirstFeedPage() : null
  if (firstPage) {
    // The gateway put the first feed page into the HTML (signed out only): its cards are on
    // screen, so React's first render shows the same posts from that answer and the page's
    // code, loaded first, rather than an outline and a second request for the feed.
    beforeFirstRender = Promise.all([homePage, import('@/features/feed/first-feed-page')])
      .then(async ([page, seed]) => {
        homePageLoaded(page.default)
        await seed.seedFirstFeedPage(store, firstPage)
      })
      .catch(() => undefined) // the lazy route and the feed's own request take over
  } else if (signedOut) {
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

// The first render as a transition: React then renders in slices of a few milliseconds and
// lets the browser answer input between them, instead of one long task (issue 22, total
// blocking time); the shell stays on screen until the render is done.
void Promise.all([loadAppConfig(), beforeFirstRender]).then(() => {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => {
    root.render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    )
  })
})
