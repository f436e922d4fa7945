import { useEffect, useState } from 'react'
import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router-dom'
import { createAppRouter } from '@/app/router'
import type { AppStore } from '@/app/store'
import { restoreFinished, restoreStarted } from '@/lib/auth-slice'
import { endSession, renewSession } from '@/lib/base-query'
import { readPersistFlag } from '@/lib/persist'
import { watchSession } from '@/lib/session-expiry'

/**
 * spec 1 §4 "Session": with the persist flag on and no token held, the app renews the
 * session before it shows anything but "Loading...". A 401 or 403 on that renewal clears
 * the session and the flag; the app then starts signed out.
 */
export function App({ store }: { store: AppStore }) {
  const [router] = useState(createAppRouter)
  const [ready, setReady] = useState(() => !readPersistFlag())

  // A session that ends by itself (expired, or renewal refused) goes to /login: issue 20 §4.
  useEffect(() => watchSession(store, router), [router, store])

  useEffect(() => {
    if (ready) return
    store.dispatch(restoreStarted())
    void renewSession(store).then((outcome) => {
      if (outcome === 'refused') endSession(store.dispatch)
      store.dispatch(restoreFinished())
      setReady(true)
    })
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
