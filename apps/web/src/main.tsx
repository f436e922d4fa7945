import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { createStore } from '@/app/store'
import { loadAppConfig } from '@/config/env'
import { startAnalytics } from '@/lib/analytics'
import { installErrorReporting } from '@/lib/client-errors'
import '@/styles/global.css'

// First, so errors while the app starts are reported too.
startAnalytics()
installErrorReporting()

const store = createStore()

// The home page's code starts loading now, beside the configuration, instead of after the
// first render asks for it (the router's lazy import then finds it loaded or under way).
if (window.location.pathname === '/') void import('@/features/feed/HomePage')

void loadAppConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
})
