import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/** Role codes. Codes are strings; role checks compare as strings. */
export const ROLES = { User: '2000', Admin: '2001', Editor: '2002' } as const
export type RoleName = keyof typeof ROLES
export const ROLE_CODES = [ROLES.User, ROLES.Admin, ROLES.Editor] as const
export const RoleCodeSchema = literalUnion(ROLE_CODES)
export type RoleCode = Static<typeof RoleCodeSchema>
export const isRoleCode = (value: unknown): value is RoleCode => isOneOf(ROLE_CODES, value)
