import type { ConsumerDefinition } from '@marketplace/service-kit'
import type { ProfilesRepository } from '../repositories/profiles-repository'
import { userRegisteredHandler } from './user-registered.handler'

/** Every event the people service reacts to, wired in one place (consumer group "people"). */
export function peopleSubscriptions(deps: { profiles: ProfilesRepository }): ConsumerDefinition[] {
  return [
    {
      groupId: 'people',
      handlers: {
        'user.registered': userRegisteredHandler(deps.profiles),
      },
    },
  ]
}
