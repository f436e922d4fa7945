import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { createStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import { feedApi, feedQueryOf } from '@/features/feed/feed-api'
import { initialFeedState } from '@/features/feed/feed-slice'
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
  // Signed out (no session to renew first), the first feed page is asked for now too: its
  // answer is in the cache when the page renders, one round trip sooner (issue 22, LCP).
  // The subscription stays: page 1 is where a visitor comes back to.
  if (!readPersistFlag()) {
    void store.dispatch(feedApi.endpoints.getJobsFeed.initiate(feedQueryOf(initialFeedState)))
  }
}

void loadAppConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
})
