import { ROLES } from '@marketplace/contracts/marketplace'
import { isValidPassword, normalizeEmail } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import type { PasswordHasher } from './password-hasher'
import { EmailTakenError, type CredentialsRepository } from './credentials-repository'

export interface AdminSettings {
  email: string
  password: string
}

/**
 * What start-up did with ADMIN_EMAIL: made the account, gave an existing verified one the
 * Admin role, or refused an unverified one (see below).
 */
export type EnsureAdminOutcome = 'created' | 'promoted' | 'refused-unverified'

/**
 * Creates the administrator named by ADMIN_EMAIL / ADMIN_PASSWORD at start (verified, roles
 * User and Admin), with a user.registered event so the people service gives it a profile.
 * An existing account with that address is promoted only once its address is verified; its
 * password is left as it is, so a password changed in the app survives restarts. An
 * unverified one is refused: anybody can sign up with any address, so promoting it would
 * hand the Admin role to whoever registered the address first and set their own password.
 * Its owner proves the address (the code goes to the real mailbox) and the next start
 * promotes it; otherwise an operator removes the squatting account.
 */
export async function ensureAdmin(
  deps: { credentials: CredentialsRepository; hasher: PasswordHasher; notifyOutbox(): void },
  settings: AdminSettings,
): Promise<EnsureAdminOutcome> {
  const email = normalizeEmail(settings.email)
  if (!isValidPassword(settings.password)) {
    throw new Error(
      'ADMIN_PASSWORD must follow the password rules (8-24 characters, a-z, A-Z, 0-9, one of !@#$%)',
    )
  }
  const promoteExisting = async (): Promise<EnsureAdminOutcome | null> => {
    const existing = await deps.credentials.findByEmail(email)
    if (!existing) return null
    const promoted = await deps.credentials.addRoleIfVerified(existing._id, ROLES.Admin)
    return promoted ? 'promoted' : 'refused-unverified'
  }
  const outcome = await promoteExisting()
  if (outcome) return outcome
  const userId = deps.credentials.newUserId()
  const profile = {
    userId,
    email,
    firstName: 'Admin',
    lastName: 'Marketplace',
    phoneNumber: '(555) 555-0100',
    dateOfBirth: '1990-01-01',
    interest: 'Both' as const,
    emailPreferences: false,
  }
  try {
    await insertAdmin()
  } catch (error) {
    // Two instances starting on a new database (two replicas, two pods) both found no
    // account and both inserted it: the unique address lets one in. The other takes the
    // account as it is now, as at any later start.
    if (!(error instanceof EmailTakenError)) throw error
    const existing = await promoteExisting()
    if (existing) return existing
    throw error
  }
  deps.notifyOutbox()
  return 'created'

  async function insertAdmin(): Promise<void> {
    await deps.credentials.insert(
      {
        _id: userId,
        email,
        passwordHash: await deps.hasher.hash(settings.password),
        firstName: profile.firstName,
        lastName: profile.lastName,
        phoneNumber: profile.phoneNumber,
        isWorker: false,
        roles: [ROLES.User, ROLES.Admin],
        verified: true,
        createdAt: new Date(),
      },
      [
        newEvent('user.registered', { aggregateId: userId, actorId: userId, data: profile }),
        newEvent('user.verified', { aggregateId: userId, actorId: userId, data: { userId } }),
      ],
    )
  }
}
