import type { Db } from 'mongodb'
import {
  createRequestStore,
  requestIndexes,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import {
  PEOPLE_REQUESTS_COLLECTION,
  PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
  type PeopleRequestDocument,
} from './people-request-document'

/** The post's owner sends; the worker receives and decides. */
const parties = { sender: 'ownerId', receiver: 'workerId' } as const

/** Indexes, equality then sort (docs/people.md lists the query each serves). */
export const peopleRequestIndexes = requestIndexes({
  collection: PEOPLE_REQUESTS_COLLECTION,
  parties,
  unique: { keys: { postId: 1, workerId: 1 }, name: 'one_request_per_post_and_person' },
})

export function createPeopleRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: RequestOutboxTarget): void },
) {
  return createRequestStore<PeopleRequestDocument>(db, {
    collection: PEOPLE_REQUESTS_COLLECTION,
    tombstones: PEOPLE_REQUEST_TOMBSTONES_COLLECTION,
    parties,
    notifyOutbox: hooks.notifyOutbox,
  })
}

export type PeopleRequestsRepository = ReturnType<typeof createPeopleRequestsRepository>
