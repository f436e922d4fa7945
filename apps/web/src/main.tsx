import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { createStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import { startAnalytics } from '@/lib/analytics'
import { installErrorReporting } from '@/lib/client-errors'
import { readPersistFlag } from '@/lib/persist'
import '@/styles/global.css'

// First, so errors while the app starts are reported too.
startAnalytics()
installErrorReporting()

const store = createStore()

// The home page's code starts loading now, beside the configuration, instead of after the
// first render asks for it (the router's lazy import then finds it loaded or under way).
if (window.location.pathname === '/') {
  void import('@/features/feed/HomePage')
  // Signed out (no session to renew first), the first feed page is fetched now too, as the
  // page will ask for it (feed-api's defaults: page 1, newest first): the browser hands
  // that request this preloaded answer, one round trip sooner (issue 22, LCP). A link rather
  // than the feed's own query, which would pull the feed's code into the entry script.
  if (!readPersistFlag()) {
    const firstPage = document.createElement('link')
    firstPage.rel = 'preload'
    firstPage.as = 'fetch'
    firstPage.crossOrigin = 'use-credentials'
    firstPage.href = '/api/jobs?page=1&sort=desc'
    document.head.append(firstPage)
  }
}

void loadAppConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
})
