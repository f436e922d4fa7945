import {
  ANALYTICS_DEVICE_TYPES,
  PROFILE_COMPLETION_FIELDS,
  appRouteOf,
} from '@marketplace/contracts/marketplace'
import { MAX_KEYS_PER_DAY, OTHER_KEY, dayOf, type DayDocument } from './day-document'
import { escapeKey, normalizeMessage } from './field-keys'

/** An event as the gateway publishes it (contracts' AnalyticsEvent plus `receivedAt`). */
export interface ReceivedEvent {
  name: string
  occurredAt?: string
  receivedAt?: string
  path?: string
  deviceType?: string
  props?: Record<string, unknown>
}

/** The day an event counts for: the gateway's arrival time (the browser's clock may be wrong). */
export function dayOfEvent(event: ReceivedEvent): string | null {
  for (const stamp of [event.receivedAt, event.occurredAt]) {
    if (typeof stamp !== 'string') continue
    const time = new Date(stamp)
    if (!Number.isNaN(time.getTime())) return dayOf(time)
  }
  return null
}

type Keyed = 'routes' | 'errors' | 'helpPages'

/**
 * The `$inc` of one day for some events: counter paths and amounts. A key the day does not
 * have yet is added only while the day holds fewer than MAX_KEYS_PER_DAY of its kind;
 * after that it counts under OTHER_KEY, so a flood of unique messages cannot grow a
 * document without bound (the first keys of a day win, and the common ones come first).
 */
export function tallyDay(
  events: readonly ReceivedEvent[],
  existing: Pick<DayDocument, Keyed> | null,
): Record<string, number> {
  const inc: Record<string, number> = {}
  const add = (path: string, amount = 1) => {
    inc[path] = (inc[path] ?? 0) + amount
  }
  const known: Record<Keyed, Set<string>> = {
    routes: new Set(Object.keys(existing?.routes ?? {})),
    errors: new Set(Object.keys(existing?.errors ?? {})),
    helpPages: new Set(Object.keys(existing?.helpPages ?? {})),
  }
  const addKeyed = (field: Keyed, text: string) => {
    let key = escapeKey(text)
    const keys = known[field]
    if (!keys.has(key)) {
      // OTHER_KEY itself never takes a place of a real key.
      if (keys.size - (keys.has(OTHER_KEY) ? 1 : 0) >= MAX_KEYS_PER_DAY) key = OTHER_KEY
      keys.add(key)
    }
    add(`${field}.${key}`)
  }

  for (const event of events) {
    switch (event.name) {
      case 'page_view': {
        add('pageViews')
        // Anyone may send a page view with any path: only the app's own routes are counted
        // by name, every other path under one key, so made-up paths cannot fill the day's
        // keys and push real routes into "(other)".
        addKeyed('routes', appRouteOf(event.path ?? '/'))
        const device = (ANALYTICS_DEVICE_TYPES as readonly unknown[]).includes(event.deviceType)
          ? (event.deviceType as string)
          : 'unknown'
        add(`devices.${device}`)
        break
      }
      case 'client_error':
        add('clientErrors')
        addKeyed('errors', normalizeMessage(event.props?.message))
        break
      case 'help_viewed':
        add('helpViews')
        addKeyed('helpPages', appRouteOf(event.path ?? '/'))
        break
      case 'support_ticket_created':
        add('supportCreated')
        break
      case 'support_ticket_failed':
        add('supportFailed')
        break
      case 'worker_profile_saved': {
        add('profilesSaved')
        const filled = Number(event.props?.completion)
        const of = PROFILE_COMPLETION_FIELDS.length
        if (Number.isInteger(filled) && filled >= 0 && filled <= of)
          add(`completion.filled${filled}`)
        break
      }
      default:
        // A name a newer web app sends that this version does not know: not counted.
        break
    }
  }
  return inc
}
