import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/App'
import { beforeFirstRender } from '@/app/before-first-render'
import { createStore } from '@/app/store'
import { startAnalytics } from '@/lib/analytics'
import { installErrorReporting } from '@/lib/client-errors'

// The app, started by main.tsx once the page has painted. First, so errors while the app
// starts are reported too.
startAnalytics()
installErrorReporting()

const store = createStore()

// The first render as a transition: React then renders in slices of a few milliseconds and
// lets the browser answer input between them, instead of one long task (issue 22, total
// blocking time); the shell stays on screen until the render is done.
void beforeFirstRender(store, window.location.pathname).then(() => {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => {
    root.render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    )
  })
})
