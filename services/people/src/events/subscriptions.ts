import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'
import type { ProfilesRepository } from '../repositories/profiles-repository'
import { userRegisteredHandler } from './user-registered.handler'

/** Every event the people service reacts to, wired in one place. */
export function peopleSubscriptions(deps: {
  profiles: ProfilesRepository
  tokenRevocations: TokenRevocations
}): ConsumerDefinition[] {
  return [
    {
      groupId: 'people',
      handlers: {
        'user.registered': userRegisteredHandler(deps.profiles),
      },
    },
    // A group of its own: a profile event that keeps failing must not hold revocations back
    // on the same partition, and a new group reads the topic from the beginning, so the
    // cut-offs of users revoked before this group existed are known too.
    {
      groupId: 'people-token-revocations',
      handlers: deps.tokenRevocations.handlers,
    },
  ]
}
