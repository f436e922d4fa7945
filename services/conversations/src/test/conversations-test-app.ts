import { ObjectId } from 'mongodb'
import { Topics, type EventData, type EventName, type Topic } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, startServiceTestApp, waitFor } from '@marketplace/service-kit/testing'
import { buildConversationsApp } from '../app'
import { readConfig } from '../config'
import {
  CONVERSATIONS_COLLECTION,
  type ConversationDocument,
} from '../conversations/conversation-document'
import { INBOXES_COLLECTION, type InboxDocument } from '../inbox/inbox-document'
import {
  MESSAGE_BUCKETS_COLLECTION,
  bucketId,
  bucketOf,
  messageKey,
  parseMessageId,
  type MessageBucketDocument,
} from '../messages/message-document'
import { USERS_COLLECTION, type UserCard } from '../users/user-directory'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
export const EVENT_WAIT_MS = 60_000

export interface OpenedRequest {
  conversationId: string
  requestId: string
  postId: string
  postTitle: string
  requesterId: string
  otherId: string
}

/**
 * The conversations app as server.ts builds it, against the real servers, with helpers that
 * announce users, requests, deletions and moderators' decisions exactly as the auth, people,
 * jobs and reports services do (their events, on the real broker), each waiting until the
 * service has taken the event in.
 */
export async function startConversationsTestApp(name: string, env: Record<string, string> = {}) {
  const service = await startServiceTestApp(name, (base) =>
    buildConversationsApp(readConfig({ ...base, ...env })),
  )
  const { db } = service
  const users = db.collection<UserCard>(USERS_COLLECTION)
  const conversations = db.collection<ConversationDocument>(CONVERSATIONS_COLLECTION)
  const inboxes = db.collection<InboxDocument>(INBOXES_COLLECTION)
  const buckets = db.collection<MessageBucketDocument>(MESSAGE_BUCKETS_COLLECTION)
  const newId = () => new ObjectId().toHexString()

  async function announce<N extends EventName>(
    topic: Topic,
    type: N,
    aggregateId: string,
    actorId: string | null,
    data: EventData<N>,
  ) {
    await publishEvent(topic, newEvent(type, { aggregateId, actorId, data }))
  }

  const until = (check: () => Promise<boolean>, what: string) =>
    waitFor(check, { timeoutMs: EVENT_WAIT_MS, what })

  const card = (userId: string) => users.findOne({ _id: userId })
  const conversation = (id: string) => conversations.findOne({ _id: id })

  async function opened(request: OpenedRequest): Promise<OpenedRequest> {
    await until(async () => {
      const [requester, other] = await Promise.all([
        inboxes.findOne({ _id: request.requesterId }),
        inboxes.findOne({ _id: request.otherId }),
      ])
      return Boolean(
        requester?.conversations?.[request.conversationId] &&
        other?.conversations?.[request.conversationId],
      )
    }, `conversation ${request.conversationId} opened in both inboxes`)
    return request
  }

  return {
    ...service,

    /** user.registered, as auth announces a sign-up. */
    async registerUser(firstName: string, lastName: string): Promise<string> {
      const userId = newId()
      await announce(Topics.authUsers, 'user.registered', userId, userId, {
        userId,
        email: `${firstName}.${lastName}.${userId}@example.com`.toLowerCase(),
        firstName,
        lastName,
        phoneNumber: '(212) 555-0100',
        dateOfBirth: '1990-06-15',
        interest: 'Both',
        emailPreferences: false,
      })
      await until(async () => (await card(userId))?.firstName === firstName, `${firstName}'s card`)
      return userId
    },

    /** worker-profile.updated with a picture, as people announces a saved worker profile. */
    async setPicture(userId: string, profilePicture: string): Promise<void> {
      await announce(Topics.peopleUsers, 'worker-profile.updated', userId, userId, {
        userId,
        isWorker: true,
        profilePicture,
      })
      await until(
        async () => (await card(userId))?.profilePicture === profilePicture,
        `${userId}'s picture`,
      )
    },

    /** job-request.created: `requesterId` asked to do a post of `ownerId`. */
    async requestPost(
      requesterId: string,
      ownerId: string,
      postTitle = 'Move a piano',
      requesterName = 'Rita Requester',
    ): Promise<OpenedRequest> {
      const requestId = newId()
      const postId = newId()
      await announce(Topics.jobsRequests, 'job-request.created', requestId, requesterId, {
        requestId,
        postId,
        postTitle,
        ownerId,
        requesterId,
        requesterName,
        status: 'pending',
      })
      return opened({
        conversationId: `jr:${requestId}`,
        requestId,
        postId,
        postTitle,
        requesterId,
        otherId: ownerId,
      })
    },

    /** people-request.created: `ownerId` asked `workerId` to do one of their posts. */
    async requestPerson(
      ownerId: string,
      workerId: string,
      postTitle = 'Paint a fence',
      postId = newId(),
    ): Promise<OpenedRequest> {
      const requestId = newId()
      await announce(Topics.peopleRequests, 'people-request.created', requestId, ownerId, {
        requestId,
        postId,
        postTitle,
        ownerId,
        ownerName: 'Olga Owner',
        workerId,
        workerName: 'Wanda Worker',
        status: 'pending',
      })
      return opened({
        conversationId: `pr:${requestId}`,
        requestId,
        postId,
        postTitle,
        requesterId: ownerId,
        otherId: workerId,
      })
    },

    /** job-request.deleted: the requester withdrew, or the post owner deleted. */
    async deletePostRequest(request: OpenedRequest, deletedBy: 'requester' | 'owner') {
      const actorId = deletedBy === 'requester' ? request.requesterId : request.otherId
      await announce(Topics.jobsRequests, 'job-request.deleted', request.requestId, actorId, {
        requestId: request.requestId,
        postId: request.postId,
        postTitle: request.postTitle,
        ownerId: request.otherId,
        requesterId: request.requesterId,
        requesterName: 'Rita Requester',
        status: 'pending',
        deletedBy,
      })
      await until(
        async () => (await conversation(request.conversationId))?.closedBy != null,
        `${request.conversationId} closed`,
      )
    },

    /** people-request.deleted by `actorId` (the owner withdraws, the worker deletes). */
    async deletePersonRequest(request: OpenedRequest, actorId: string) {
      await announce(Topics.peopleRequests, 'people-request.deleted', request.requestId, actorId, {
        requestId: request.requestId,
        postId: request.postId,
        postTitle: request.postTitle,
        ownerId: request.requesterId,
        ownerName: 'Olga Owner',
        workerId: request.otherId,
        workerName: 'Wanda Worker',
        status: 'pending',
      })
      await until(
        async () => (await conversation(request.conversationId))?.closedBy != null,
        `${request.conversationId} closed`,
      )
    },

    /** post.deleted, as jobs announces a deletion (its requests go without events). */
    async deletePost(request: OpenedRequest) {
      await announce(Topics.jobsPosts, 'post.deleted', request.postId, request.otherId, {
        postId: request.postId,
        ownerId: request.otherId,
        title: request.postTitle,
      })
      await until(
        async () => (await conversation(request.conversationId))?.closedBy != null,
        `${request.conversationId} closed with its post`,
      )
    },

    /** user.deletion-requested: the 30-day grace period starts. */
    async requestDeletion(userId: string) {
      const requestedAt = new Date()
      await announce(Topics.peopleUsers, 'user.deletion-requested', userId, userId, {
        userId,
        requestedAt: requestedAt.toISOString(),
        purgeAfter: new Date(requestedAt.getTime() + 30 * 86_400_000).toISOString(),
      })
      await until(
        async () => (await card(userId))?.deletionRequestedAt?.getTime() === requestedAt.getTime(),
        `${userId}'s deletion requested`,
      )
    },

    /** user.deletion-cancelled ("Keep my account"), as auth announces it. */
    async cancelDeletion(userId: string) {
      await announce(Topics.authUsers, 'user.deletion-cancelled', userId, userId, { userId })
      await until(
        async () => Boolean((await card(userId))?.deletionCancelledAt),
        `${userId}'s deletion cancelled`,
      )
    },

    /** user.deleted: the grace period ended; waits until the purge is done. */
    async purgeUser(userId: string) {
      await announce(Topics.peopleUsers, 'user.deleted', userId, null, { userId })
      await until(async () => {
        const [purged, inbox] = await Promise.all([card(userId), inboxes.findOne({ _id: userId })])
        return purged?.deleted === true && inbox === null
      }, `${userId} purged`)
    },

    /** report.resolved of a message report, as the reports service announces a decision. */
    async resolveReport(messageId: string, action: 'take-down' | 'dismiss') {
      const reportId = newId()
      await announce(Topics.reports, 'report.resolved', reportId, newId(), {
        reportId,
        targetType: 'message',
        targetId: messageId,
        action,
      })
      if (action === 'dismiss') return
      const target = parseMessageId(messageId)!
      await until(async () => {
        const bucket = await buckets.findOne({
          _id: bucketId(target.conversationId, bucketOf(target.seq)),
        })
        return bucket?.messages?.[messageKey(target.seq)]?.takenDown === true
      }, `${messageId} taken down`)
    },
  }
}

export type ConversationsTestApp = Awaited<ReturnType<typeof startConversationsTestApp>>
