import type { EventHandler } from '@marketplace/service-kit'
import type { CredentialsRepository } from './credentials-repository'

/**
 * The people service owns names, phone and the worker profile; auth keeps a copy so the
 * login and refresh answers need no call. Plain $set writes: replaying one is harmless, and
 * one user's events arrive in order (keyed by user id).
 */
export function userProfileUpdatedHandler(
  credentials: CredentialsRepository,
): EventHandler<'user.profile-updated'> {
  return async (event) => {
    const { userId, firstName, lastName, phoneNumber } = event.data
    await credentials.updateProjection(userId, { firstName, lastName, phoneNumber })
  }
}

export function workerProfileUpdatedHandler(
  credentials: CredentialsRepository,
): EventHandler<'worker-profile.updated'> {
  return async (event) => {
    await credentials.updateProjection(event.data.userId, { isWorker: event.data.isWorker })
  }
}
