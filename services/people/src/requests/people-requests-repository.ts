import type { Db } from 'mongodb'
import {
  createRequestStore,
  requestCollectionIndexes,
  type RequestOutboxTarget,
} from '@marketplace/request-lifecycle'
import { PEOPLE_REQUESTS } from './people-request-document'

/** Indexes, equality then sort (docs/people.md lists the query each serves). */
export const peopleRequestIndexes = requestCollectionIndexes(PEOPLE_REQUESTS)

export function createPeopleRequestsRepository(
  db: Db,
  hooks: { notifyOutbox(target: RequestOutboxTarget): void },
) {
  return createRequestStore(db, PEOPLE_REQUESTS, hooks.notifyOutbox)
}

export type PeopleRequestsRepository = ReturnType<typeof createPeopleRequestsRepository>
