import {
  normalizeSignupPayload,
  validateSignupPayload,
  type SignupPayload,
} from '@marketplace/contracts/validation'
import { ROLES } from '@marketplace/contracts/marketplace'
import { BadRequestError, ConflictError, newEvent } from '@marketplace/service-kit'
import { EmailTakenError, type CredentialsRepository } from './credentials-repository'
import type { PasswordHasher } from './password-hasher'

export const EMAIL_TAKEN = 'Email already registered'

/**
 * Sign-up: the shared rules decide, in the order the web form shows them;
 * the account and its user.registered event are stored together, so the people service
 * always learns of every account.
 */
export async function signUp(
  deps: {
    credentials: Pick<CredentialsRepository, 'newUserId' | 'emailExists' | 'insert'>
    hasher: Pick<PasswordHasher, 'hash'>
    requestId?: string
  },
  payload: SignupPayload,
): Promise<{ userId: string; email: string }> {
  const problem = validateSignupPayload(payload)
  if (problem) throw new BadRequestError(problem, 'INVALID_SIGNUP')
  const signup = normalizeSignupPayload(payload)
  if (await deps.credentials.emailExists(signup.email))
    throw new ConflictError(EMAIL_TAKEN, 'EMAIL_TAKEN')

  const userId = deps.credentials.newUserId()
  const registered = newEvent('user.registered', {
    aggregateId: userId,
    actorId: userId,
    requestId: deps.requestId,
    data: {
      userId,
      email: signup.email,
      firstName: signup.firstname,
      lastName: signup.lastname,
      phoneNumber: signup.phoneNumber,
      dateOfBirth: signup.dateOfBirth,
      interest: signup.interest,
      emailPreferences: signup.emailPreferences,
    },
  })
  try {
    await deps.credentials.insert(
      {
        _id: userId,
        email: signup.email,
        passwordHash: await deps.hasher.hash(signup.password),
        firstName: signup.firstname,
        lastName: signup.lastname,
        phoneNumber: signup.phoneNumber,
        isWorker: false,
        roles: [ROLES.User],
        verified: false,
        createdAt: new Date(),
      },
      [registered],
    )
  } catch (error) {
    if (error instanceof EmailTakenError) throw new ConflictError(EMAIL_TAKEN, 'EMAIL_TAKEN')
    throw error
  }
  return { userId, email: signup.email }
}
