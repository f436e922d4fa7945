import { useCallback } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppDispatch } from '@/app/hooks'
import { modalClosed } from '@/app/ui-slice'
import { paths } from '@/config/paths'
import { useSignOut } from '@/lib/use-sign-out'

/** The menus' Logout: no modal stays open, the session ends, the user goes to /login. */
export function useLogout(): () => Promise<void> {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const signOut = useSignOut()

  return useCallback(async () => {
    dispatch(modalClosed())
    await signOut()
    navigate(paths.login)
  }, [dispatch, navigate, signOut])
}
