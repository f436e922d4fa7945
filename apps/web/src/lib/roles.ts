/** A list, an object or a single value, compared as strings. */
export function hasAnyRole(roles: unknown, allowed: readonly string[]): boolean {
  const values = Array.isArray(roles)
    ? roles
    : roles && typeof roles === 'object'
      ? Object.values(roles)
      : [roles]
  return values.some((value) => value != null && allowed.includes(String(value)))
}
