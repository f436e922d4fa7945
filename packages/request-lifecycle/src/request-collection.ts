import { OUTBOX_PENDING_INDEX, type IndexDefinition } from '@marketplace/service-kit'
import type { RequestDocument, RequestParties } from './request-document'

/** How a service stores its requests: one declaration serves the indexes and the store. */
export interface RequestCollection<Doc extends RequestDocument> {
  /** The requests themselves. */
  name: string
  /** Where a deleted request's events wait for the relay (service-kit tombstones.ts). */
  tombstones: string
  parties: RequestParties<Doc>
  /** The fields no two requests share all of: the database refuses a second one (the 409). */
  unique: { fields: ReadonlyArray<keyof Doc & string>; index: string }
}

/**
 * The indexes of a request collection, equality then sort: the unique one, which makes a
 * second request a 409 even when two are sent in parallel; each side's list newest first
 * (what `sent` and `received` read, and the purge of a user); the outbox flag.
 */
export function requestCollectionIndexes<Doc extends RequestDocument>(
  requests: RequestCollection<Doc>,
): IndexDefinition[] {
  const { name: collection, parties, unique } = requests
  return [
    {
      collection,
      keys: Object.fromEntries(unique.fields.map((field) => [field, 1])),
      options: { name: unique.index, unique: true },
    },
    { collection, keys: { [parties.sender]: 1, createdAt: -1 }, options: { name: 'sent_recent' } },
    {
      collection,
      keys: { [parties.receiver]: 1, createdAt: -1 },
      options: { name: 'received_recent' },
    },
    { collection, keys: OUTBOX_PENDING_INDEX.keys, options: { name: OUTBOX_PENDING_INDEX.name } },
  ]
}
