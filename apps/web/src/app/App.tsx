import { useEffect, useState } from 'react'
import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router-dom'
import { createAppRouter } from '@/app/router'
import type { AppStore } from '@/app/store'
import { readPersistFlag } from '@/lib/persist'
import { isSessionRestored, restoreSession } from '@/lib/session-restore'
import { watchSession } from '@/lib/session-expiry'

/**
 * With the persist flag on and no token held, the app renews the
 * session before it shows anything but "Loading..." (lib/session-restore). boot.tsx has
 * usually done that before the first render; the routes then render at once.
 */
export function App({ store }: { store: AppStore }) {
  const [router] = useState(createAppRouter)
  const [ready, setReady] = useState(() => !readPersistFlag() || isSessionRestored(store))

  // A session that ends by itself (expired, or renewal refused) goes to /login, told why.
  useEffect(() => watchSession(store, router), [router, store])

  useEffect(() => {
    if (ready) return
    void restoreSession(store).then(() => setReady(true))
  }, [ready, store])

  return (
    <Provider store={store}>
      {ready ? (
        <RouterProvider router={router} />
      ) : (
        <p className="page-loading" role="status">
          Loading...
        </p>
      )}
    </Provider>
  )
}
