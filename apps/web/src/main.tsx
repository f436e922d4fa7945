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

void loadAppConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
})
