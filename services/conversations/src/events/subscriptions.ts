import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'
import type { ConversationsService } from '../conversations/conversations-service'
import type { MessagesService } from '../messages/messages-service'
import type { SystemLines } from '../messages/system-lines'
import type { MessageReportsService } from '../reports/message-reports-service'
import type { UserDirectory } from '../users/user-directory'

/** Every event the conversations service reacts to, in one place. */
export function conversationsSubscriptions(deps: {
  conversations: ConversationsService
  messages: MessagesService
  reports: MessageReportsService
  users: UserDirectory
  tokenRevocations: TokenRevocations
  /** Offers on requests, told in their conversation (docs/conversations.md, "System lines"). */
  systemLines?: SystemLines
}): ConsumerDefinition[] {
  const opened = (occurredAt: string) => new Date(occurredAt)
  return [
    {
      groupId: 'conversations',
      handlers: {
        // A worker asked to do a post: the worker is the requester, the post owner the other side.
        'job-request.created': async (event) => {
          const { data, occurredAt, actorId } = event
          await deps.conversations.open({
            kind: 'post-request',
            requestId: data.requestId,
            postId: data.postId,
            postTitle: data.postTitle,
            requesterId: data.requesterId,
            requesterName: data.requesterName,
            otherId: data.ownerId,
            otherName: '',
            openedAt: opened(occurredAt),
            actorId,
          })
          // The worker's offer, if any, is the conversation's first line.
          await deps.systemLines?.offerStep(event)
        },
        'job-request.countered': async (event) => deps.systemLines?.offerStep(event),
        'job-request.counter-answered': async (event) => deps.systemLines?.offerStep(event),
        'job-request.decided': async (event) => deps.systemLines?.offerStep(event),
        // A post owner asked a worker: the owner is the requester, the worker the other side.
        'people-request.created': async ({ data, occurredAt, actorId }) =>
          deps.conversations.open({
            kind: 'person-request',
            requestId: data.requestId,
            postId: data.postId,
            postTitle: data.postTitle,
            requesterId: data.ownerId,
            requesterName: data.ownerName,
            otherId: data.workerId,
            otherName: data.workerName,
            openedAt: opened(occurredAt),
            actorId,
          }),
        'job-request.deleted': async ({ data }) =>
          deps.conversations.closeRequest(
            'post-request',
            data.requestId,
            data.deletedBy === 'requester' ? 'request-withdrawn' : 'request-deleted',
          ),
        // The event does not say who deleted; its actor does: the owner who sent the request
        // withdraws it, the worker who received it deletes it (docs/conversations.md).
        'people-request.deleted': async ({ data, actorId }) =>
          deps.conversations.closeRequest(
            'person-request',
            data.requestId,
            actorId === data.ownerId ? 'request-withdrawn' : 'request-deleted',
          ),
        // The jobs service deletes a deleted post's requests without an event of their own.
        'post.deleted': async ({ data }) => deps.conversations.closePost(data.postId),
        'report.resolved': async ({ data, actorId }) => {
          if (data.targetType === 'message' && data.action === 'take-down') {
            await deps.messages.takeDown(data.targetId, actorId)
          }
        },
        // The grace period ended: the user's messages lose their text, their reports go.
        'user.deleted': async ({ data }) => {
          await deps.messages.forgetUser(data.userId)
          await deps.reports.forgetReporter(data.userId)
        },
      },
    },
    // Its own group, as in every service: revocations must not wait behind a failing handler.
    { groupId: 'conversations-token-revocations', handlers: deps.tokenRevocations.handlers },
    // The parties' names, pictures and account state, from the identity and people events.
    { groupId: 'conversations-users', handlers: deps.users.handlers },
  ]
}
