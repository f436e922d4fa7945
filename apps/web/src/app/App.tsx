import { useEffect, useState } from 'react'
import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router-dom'
import { createAppRouter } from '@/app/router'
import type { AppStore } from '@/app/store'
import { restoreFinished, restoreStarted } from '@/lib/auth-slice'
import { endSession, renewSession, setSessionExpiredHandler } from '@/lib/base-query'
import { readPersistFlag } from '@/lib/persist'
import { paths } from '@/config/paths'

/**
 * spec 1 §4 "Session": with the persist flag on and no token held, the app renews the
 * session before it shows anything but "Loading...". A 401 or 403 on that renewal clears
 * the session and the flag; the app then starts signed out.
 */
export function App({ store }: { store: AppStore }) {
  const [router] = useState(createAppRouter)
  const [ready, setReady] = useState(() => !readPersistFlag())

  useEffect(() => {
    setSessionExpiredHandler(() => void router.navigate(paths.login))
    if (ready) return
    store.dispatch(restoreStarted())
    void renewSession(store).then((outcome) => {
      if (outcome === 'refused') endSession(store.dispatch)
      store.dispatch(restoreFinished())
      setReady(true)
    })
  }, [ready, router, store])

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
