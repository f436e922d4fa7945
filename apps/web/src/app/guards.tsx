import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { paths } from '@/config/paths'
import { selectCurrentUser, selectIsLoggedIn } from '@/lib/auth-slice'

/** spec 2 §5 "Role checks": a list, an object or a single value, compared as strings. */
export function hasAnyRole(roles: unknown, allowed: readonly string[]): boolean {
  const values = Array.isArray(roles)
    ? roles
    : roles && typeof roles === 'object'
      ? Object.values(roles)
      : [roles]
  return values.some((value) => value != null && allowed.includes(String(value)))
}

/**
 * spec 2 §2.1: anonymous users go to /login, remembering where they were going; signed-in
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
