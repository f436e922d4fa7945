import type { DomainEvent } from '@marketplace/contracts/events'
import type { ProfilesRepository } from '../profiles/profiles-repository'

/** A new account gets its (empty) user profile; the worker profile comes later, by choice. */
export function userRegisteredHandler(profiles: ProfilesRepository) {
  return async (event: DomainEvent<'user.registered'>) => {
    const { data } = event
    await profiles.createIfMissing({
      _id: data.userId,
      firstName: data.firstName,
      lastName: data.lastName,
      email: data.email,
      phoneNumber: data.phoneNumber,
      dateOfBirth: data.dateOfBirth,
      interest: data.interest,
      emailPreferences: data.emailPreferences,
      registeredAt: new Date(event.occurredAt),
    })
  }
}
