import type { Dispatch } from '@reduxjs/toolkit'
import { restoreFinished, restoreStarted } from '@/lib/auth-slice'
import { endSession, renewSession } from '@/lib/base-query'

/** The store as this needs it (lib never imports app/store). */
type SessionStore = Parameters<typeof renewSession>[0] & { dispatch: Dispatch }

const restores = new WeakMap<object, Promise<void>>()
const restored = new WeakSet<object>()

/**
 * With the persist flag on and no token held, the session is renewed
 * before the app shows anything of the user; a 401 or 403 clears the session and the flag,
 * and the app starts signed out. boot.tsx starts this before the first render (the
 * renewal index.html started is usually answered by then), App as the fallback; once per
 * store, so the two share one renewal.
 */
export function restoreSession(store: SessionStore): Promise<void> {
  let restore = restores.get(store)
  if (!restore) {
    store.dispatch(restoreStarted())
    restore = renewSession(store).then((outcome) => {
      if (outcome === 'refused') endSession(store.dispatch)
      store.dispatch(restoreFinished())
      restored.add(store)
    })
    restores.set(store, restore)
  }
  return restore
}

/** Whether this store's session restore has finished (App then renders the routes at once). */
export const isSessionRestored = (store: object): boolean => restored.has(store)
