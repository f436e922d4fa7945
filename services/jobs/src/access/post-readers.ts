import type { JobRequestDocument } from '../requests/request-document'
import type { RequestsRepository } from '../requests/requests-repository'
import type { PostAccess } from './post-access'

/**
 * Who may see each post's hidden location and contact besides its owner: the requesters
 * whose request on it is accepted, read from the requests themselves, and the workers the
 * owner invited who accepted (post-access.ts). Deriving the first from the request makes an
 * owner's decision one write: no crash can leave a rejected requester with the view or an
 * accepted one without it.
 */
export function createPostReaders(deps: {
  requests: Pick<RequestsRepository, 'acceptedOn' | 'allAccepted'>
  access: Pick<PostAccess, 'invitedTo' | 'allInvitations' | 'isInvited'>
}) {
  return {
    /**
     * The requester's own access to the posts of their requests: [requesterId] where their
     * request is accepted or the owner invited them, else nothing. What a view for anyone
     * but the owner needs (`toPostView` shows such a viewer only themselves), read from the
     * requests in hand and one invitation by `_id` each, never from the posts' other requests.
     */
    async requesterAccess(
      requesterId: string,
      requests: ReadonlyArray<Pick<JobRequestDocument, 'postId' | 'status'>>,
    ): Promise<Map<string, string[]>> {
      const granted = await Promise.all(
        requests.map(
          async ({ postId, status }) =>
            [
              postId,
              status === 'accepted' || (await deps.access.isInvited(postId, requesterId)),
            ] as const,
        ),
      )
      return new Map(granted.filter(([, yes]) => yes).map(([postId]) => [postId, [requesterId]]))
    },

    /** The users authorized on each post named (both routes, each user once). */
    async usersOf(postIds: readonly string[]): Promise<Map<string, string[]>> {
      const [accepted, invited] = await Promise.all([
        deps.requests.acceptedOn(postIds),
        deps.access.invitedTo(postIds),
      ])
      return merged(accepted, invited)
    },

    /** Every post's authorized users, for the feed index's start-up load. */
    async all(): Promise<Map<string, string[]>> {
      const [accepted, invited] = await Promise.all([
        deps.requests.allAccepted(),
        deps.access.allInvitations(),
      ])
      return merged(accepted, invited)
    },
  }
}

function merged(...sources: Array<Map<string, string[]>>): Map<string, string[]> {
  const result = new Map<string, string[]>()
  for (const source of sources) {
    for (const [postId, users] of source) {
      const all = result.get(postId) ?? []
      for (const userId of users) if (!all.includes(userId)) all.push(userId)
      result.set(postId, all)
    }
  }
  return result
}

export type PostReaders = ReturnType<typeof createPostReaders>
