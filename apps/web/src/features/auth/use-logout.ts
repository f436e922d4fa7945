import { useCallback } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppDispatch } from '@/app/hooks'
import { modalClosed } from '@/app/ui-slice'
import { paths } from '@/config/paths'
import { useLogoutMutation } from '@/features/auth/auth-api'
import { api } from '@/lib/api'
import { endSession } from '@/lib/base-query'

/**
 * spec 1 §4 "Logout": the session ends on this side first (auth, the persist flag, session
 * storage and stored auth entries), then the cached server data of the signed-in user goes,
 * then GET /logout ends the server session; its failure changes nothing for the person,
 * who goes to /login either way.
 */
export function useLogout(): () => Promise<void> {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const [logout] = useLogoutMutation()

  return useCallback(async () => {
    dispatch(modalClosed())
    endSession(dispatch)
    dispatch(api.util.resetApiState())
    try {
      await logout().unwrap()
    } catch {
      // spec 1 §8: a failed sign-out has no text; the local session is already gone.
    }
    navigate(paths.login)
  }, [dispatch, navigate, logout])
}
