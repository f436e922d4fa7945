import { useCallback } from 'react'
import { useDispatch } from 'react-redux'
import { api } from '@/lib/api'
import { endSession } from '@/lib/base-query'
import { useLogoutMutation } from '@/lib/session-api'

/**
 * spec 1 §4 "Logout": the session ends on this side first (auth, the persist flag, session
 * storage and stored auth entries), then the cached server data of the signed-in user goes,
 * then GET /logout ends the server session and clears the HttpOnly refresh and XSRF cookies,
 * which only the server can. Its failure changes nothing: the local session is already gone.
 */
export function useSignOut(): () => Promise<void> {
  const dispatch = useDispatch()
  const [logout] = useLogoutMutation()

  return useCallback(async () => {
    endSession(dispatch)
    dispatch(api.util.resetApiState())
    try {
      await logout().unwrap()
    } catch {
      // spec 1 §8: a failed sign-out has no text.
    }
  }, [dispatch, logout])
}
