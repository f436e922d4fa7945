import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { paths } from '@/config/paths'
import { selectCurrentUser, selectIsLoggedIn } from '@/lib/auth-slice'
import { hasAnyRole } from '@/lib/roles'

/**
 * Anonymous users go to /login, remembering where they were going; signed-in
 * users without one of the roles go to /unauthorized.
 */
export function RequireRole({
  roles,
  children,
}: {
  roles: readonly string[]
  children: ReactNode
}) {
  const location = useLocation()
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const user = useAppSelector(selectCurrentUser)
  if (!loggedIn) return <Navigate to={paths.login} replace state={{ from: location }} />
  if (!hasAnyRole(user?.roles, roles)) return <Navigate to={paths.unauthorized} replace />
  return <>{children}</>
}
