/**
 * The role codes a user holds, as strings. Role checks accept a list, an object
 * or a single value and compare as strings, so [2000], ['2000'], { User: 2000 } and 2000
 * all mean the User role. Anything else (null, booleans, nested objects) holds no role.
 */
export function roleCodesOf(roles: unknown): string[] {
  const values = Array.isArray(roles)
    ? roles
    : roles !== null && typeof roles === 'object'
      ? Object.values(roles)
      : [roles]
  return values
    .filter(
      (value): value is string | number => typeof value === 'string' || typeof value === 'number',
    )
    .map(String)
}

/** True when `roles` (list, object or single value) holds any of `allowed`, e.g. [ROLES.User]. */
export function hasAnyRole(roles: unknown, allowed: readonly (string | number)[]): boolean {
  const held = new Set(roleCodesOf(roles))
  return allowed.some((role) => held.has(String(role)))
}
