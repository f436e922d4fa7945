import { StrictMode, startTransition } from 'react'
import { startAnalytics } from '@/lib/analytics'
import { installErrorReporting } from '@/lib/client-errors'

// The app, started by main.tsx once the page has painted. First, so errors while the app
// starts are reported too.
startAnalytics()
installErrorReporting()

/**
 * A new task. The app's start is a few steps (total blocking time): evaluating the
 * store's code, the frame's, the router's, React DOM's and the app's, then the first render. Run in one
 * task they blocked a phone's main thread for about half a second; between tasks the browser
 * paints and answers input. Each step's code is preloaded with the HTML
 * (build/preload-boot-chunks), so the steps wait for no download.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

async function start() {
  // Redux, RTK Query and the API's endpoints, in three tasks: the libraries' code was one
  // evaluation of 90 KB, the longest task of the start but React's render
  // (app/store-libraries.ts). The store's modules then find them evaluated.
  await import('@/app/store-libraries')
  await nextTask()
  await import('@/app/store-query-library')
  await nextTask()
  const { createStore } = await import('@/app/store')
  await nextTask()
  const store = createStore()
  await nextTask()
  // The frame of every page (top bar, bell, search, menus), then the router's routes, then
  // what the first render waits for (the configuration, the session, the route's page
  // chunks, the first feed page): network, mostly.
  await import('@/app/shell/Layout')
  await nextTask()
  const { beforeFirstRender } = await import('@/app/before-first-render')
  await nextTask()
  const ready = beforeFirstRender(store, window.location.pathname)
  await nextTask()
  const { createRoot } = await import('react-dom/client')
  await nextTask()
  const { App } = await import('@/app/App')
  await ready
  await nextTask()

  // The first render as a transition: React then renders in slices of a few milliseconds and
  // lets the browser answer input between them, instead of one long task (total
  // blocking time); the shell stays on screen until the render is done.
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => {
    root.render(
      <StrictMode>
        <App store={store} />
      </StrictMode>,
    )
  })
}

void start()
