import { useCallback } from 'react'
import { useDispatch, useStore } from 'react-redux'
import { api } from '@/lib/api'
import { selectAccessToken, type WithAuth } from '@/lib/auth-slice'
import { endSession } from '@/lib/base-query'
import { readCookie, XSRF_COOKIE, XSRF_HEADER } from '@/lib/cookies'
import { useLogoutMutation } from '@/lib/session-api'

/** How long sign-out waits for this browser's push subscription to be ended. */
const FORGET_DEVICE_WAIT_MS = 2_000

/**
 * Once the user signs out, this browser stops receiving their pushes. Only if the
 * browser holds a subscription (the push code loads then); best effort and bounded: a push
 * service out of reach must not hold the sign-out up (the server also forgets a device the
 * push service reports gone, and a browser signed in by someone else is taken over).
 */
async function forgetThisDevice(accessToken: string | null): Promise<void> {
  if (!accessToken || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  const forget = async () => {
    const { unsubscribeThisDevice } = await import('@/lib/web-push')
    const endpoint = await unsubscribeThisDevice()
    if (!endpoint) return
    const xsrf = readCookie(XSRF_COOKIE)
    await fetch('/api/notifications/push/subscriptions', {
      method: 'DELETE',
      credentials: 'include',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        ...(xsrf ? { [XSRF_HEADER]: xsrf } : {}),
      },
      body: JSON.stringify({ endpoint }),
    })
  }
  await Promise.race([
    forget().catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, FORGET_DEVICE_WAIT_MS)),
  ])
}

/**
 * The session ends on this side first (auth, the persist flag, session
 * storage and stored auth entries), then the cached server data of the signed-in user goes,
 * then GET /logout ends the server session and clears the HttpOnly refresh and XSRF cookies,
 * which only the server can. Its failure changes nothing: the local session is already gone.
 * Before all that, this browser's push subscription ends, while the token can still say whose.
 */
export function useSignOut(): () => Promise<void> {
  const dispatch = useDispatch()
  const store = useStore<WithAuth>()
  const [logout] = useLogoutMutation()

  return useCallback(async () => {
    await forgetThisDevice(selectAccessToken(store.getState()))
    endSession(dispatch)
    dispatch(api.util.resetApiState())
    try {
      await logout().unwrap()
    } catch {
      // A failed sign-out has no text.
    }
  }, [dispatch, logout, store])
}
