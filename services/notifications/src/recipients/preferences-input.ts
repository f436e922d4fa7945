import {
  NOTIFICATION_PREFERENCE_DEFAULTS,
  type NotificationPreferences,
} from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError } from '@marketplace/service-kit'

const FLAGS = Object.keys(NOTIFICATION_PREFERENCE_DEFAULTS) as Array<keyof NotificationPreferences>

/**
 * PUT /api/notifications/preferences: the six flags, each true or false when present (the
 * screen sends them all; a client may send only what changed). Anything else is ignored.
 */
export function readPreferences(body: unknown): Partial<NotificationPreferences> {
  const input = (body ?? {}) as Record<string, unknown>
  const changes: Partial<NotificationPreferences> = {}
  for (const flag of FLAGS) {
    if (input[flag] === undefined) continue
    if (typeof input[flag] !== 'boolean') {
      throw new BadRequestError(
        Messages.notificationPreferences.invalid(flag),
        'INVALID_PREFERENCES',
      )
    }
    changes[flag] = input[flag]
  }
  return changes
}
