import type { ReceivedPeopleRequest, SentPeopleRequest } from '@marketplace/contracts/api'
import { fullName, type ProfileDocument } from '../profiles/profile-document'
import type { PeopleRequestDocument } from './people-request-document'

type Names = Map<string, ProfileDocument>

const nameIn = (names: Names, id: string) => {
  const profile = names.get(id)
  return profile ? fullName(profile) : 'Unknown User'
}

/**
 * Someone in the grace period of an account deletion is gone for everyone else until they
 * keep the account: their requests leave the other side's lists.
 */
export const isLeaving = (names: Names, id: string): boolean => !!names.get(id)?.deletion

function base(request: PeopleRequestDocument) {
  return {
    _id: request._id,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
    post: { _id: request.postId, title: request.postTitle },
  }
}

/** GET /api/people/requests/sent: whom the caller asked, for which post. */
export function sentView(request: PeopleRequestDocument, names: Names): SentPeopleRequest {
  return {
    ...base(request),
    requestedPerson: { _id: request.workerId, name: nameIn(names, request.workerId) },
  }
}

/** GET /api/people/requests/received: who asked the caller, for which post. */
export function receivedView(request: PeopleRequestDocument, names: Names): ReceivedPeopleRequest {
  return {
    ...base(request),
    requester: { _id: request.ownerId, name: nameIn(names, request.ownerId) },
  }
}
