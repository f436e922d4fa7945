import { ObjectId } from 'mongodb'
import { io, type Socket } from 'socket.io-client'
import { Topics, type EventData } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import {
  infraEnv,
  publishEvent,
  startServiceTestApp,
  waitFor,
} from '@marketplace/service-kit/testing'
import { buildNotificationsApp } from '../app'
import { readConfig } from '../config'
import {
  NOTIFICATION_BUCKETS_COLLECTION,
  type NotificationBucketDocument,
} from '../notifications/notification-buckets'
import { NOTIFICATIONS_COLLECTION } from '../notifications/notification-document'
import { RECIPIENTS_COLLECTION } from '../recipients/recipients-repository'

/** A user's authenticated socket and the pushes it received, by live event name. */
export interface LiveListener {
  socket: Socket
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test states the payload it expects
  of<T = any>(name: string): T[]
}

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
export const EVENT_WAIT_MS = 60_000
export const APP_URL = 'http://app.example.test:8080'

/**
 * The notifications app as server.ts builds it, against the real FerretDB, Kafka and SMTP
 * servers, with helpers that announce users and requests as auth, people, jobs and favorites
 * do (their events).
 */
export async function startNotificationsTestApp(name: string, env: Record<string, string> = {}) {
  const { smtpHost, smtpPort } = infraEnv()
  const service = await startServiceTestApp(name, (base) =>
    buildNotificationsApp(
      readConfig({
        SMTP_HOST: smtpHost,
        SMTP_PORT: String(smtpPort),
        APP_PUBLIC_URL: APP_URL,
        OUTBOX_POLL_MS: '500',
        ...base,
        ...env,
      }),
    ),
  )
  const notifications = service.db.collection(NOTIFICATIONS_COLLECTION)

  /** user.registered, as auth announces a sign-up; waits until this service knows the user. */
  async function registerUser(firstName: string): Promise<{ userId: string; email: string }> {
    const userId = service.newUserId()
    const email = `${firstName}.${userId}@example.test`.toLowerCase()
    await publishEvent(
      Topics.authUsers,
      newEvent('user.registered', {
        aggregateId: userId,
        actorId: userId,
        data: {
          userId,
          email,
          firstName,
          lastName: 'Tester',
          phoneNumber: '(212) 555-0100',
          dateOfBirth: '1990-06-15',
          interest: 'Both',
          emailPreferences: true,
        },
      }),
    )
    await waitFor(
      async () =>
        (await service.db.collection(RECIPIENTS_COLLECTION).findOne({ _id: userId as never })) !==
        null,
      { timeoutMs: EVENT_WAIT_MS, what: `${firstName} known to notifications` },
    )
    return { userId, email }
  }

  /** job-request.created / .decided, as jobs announces a request on a post. */
  function jobRequestEvent(
    type: 'job-request.created' | 'job-request.decided',
    data: Partial<EventData<'job-request.created'>> & { ownerId: string; requesterId: string },
  ) {
    const requestId = data.requestId ?? new ObjectId().toHexString()
    return newEvent(type, {
      aggregateId: requestId,
      actorId: type === 'job-request.created' ? data.requesterId : data.ownerId,
      data: {
        requestId,
        postId: new ObjectId().toHexString(),
        postTitle: 'Move a piano',
        requesterName: 'Wanda Worker',
        status: 'pending',
        ...data,
      },
    })
  }

  /** message.sent, as the conversations service announces a stored message. */
  function messageSentEvent(
    data: Partial<EventData<'message.sent'>> & {
      conversationId: string
      senderId: string
      recipientId: string
    },
  ) {
    const messageId = data.messageId ?? new ObjectId().toHexString()
    return newEvent('message.sent', {
      aggregateId: data.conversationId,
      actorId: data.senderId,
      data: {
        messageId,
        clientId: null,
        senderName: 'Sam Sender',
        postTitle: 'Move a piano',
        text: `Message ${messageId}`,
        sentAt: new Date().toISOString(),
        recipientUnreadCount: 1,
        recipientUnreadTotal: 1,
        ...data,
      },
    })
  }

  /** message.read: `readerId` read the conversation, whose other party is `otherId`. */
  function messageReadEvent(data: {
    conversationId: string
    readerId: string
    otherId: string
    readerUnreadTotal?: number
  }) {
    return newEvent('message.read', {
      aggregateId: data.conversationId,
      actorId: data.readerId,
      data: { readAt: new Date().toISOString(), readerUnreadTotal: 0, ...data },
    })
  }

  /** message.taken-down, as the conversations service announces a moderator's take-down. */
  function messageTakenDownEvent(data: {
    conversationId: string
    senderId: string
    recipientId: string
    messageId?: string
    postTitle?: string
  }) {
    return newEvent('message.taken-down', {
      aggregateId: data.conversationId,
      actorId: null,
      data: { messageId: new ObjectId().toHexString(), postTitle: 'Move a piano', ...data },
    })
  }

  /**
   * The user's stored notifications (all of them, newest first), each read or not as its
   * bucket says: the bucket is where "read" is kept (notification-buckets.ts).
   */
  async function storedFor(userId: string) {
    const [stored, buckets] = await Promise.all([
      notifications.find({ userId }).sort({ createdAt: -1 }).toArray(),
      service.db
        .collection<NotificationBucketDocument>(NOTIFICATION_BUCKETS_COLLECTION)
        .find({ userId })
        .toArray(),
    ])
    const listed = new Map(
      buckets.flatMap((bucket) => Object.values(bucket.items)).map((item) => [item._id, item]),
    )
    for (const notification of stored) {
      const isRead = listed.get(String(notification._id))?.isRead ?? notification.isRead
      Object.assign(notification, { isRead, status: isRead ? 'read' : 'unread' })
    }
    return stored
  }

  /** Waits until the user has `count` notifications stored. */
  const waitForStored = (userId: string, count: number) =>
    waitFor(async () => (await notifications.countDocuments({ userId })) === count, {
      timeoutMs: EVENT_WAIT_MS,
      what: `${count} notifications for ${userId}`,
    })

  /** A Socket.IO client as the web app opens it (WebSocket only, the token in `auth`). */
  function connectSocket(token: string | null, baseUrl = service.baseUrl): Socket {
    return io(baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: token ? { token } : {},
      reconnection: false,
      timeout: 5000,
    })
  }

  /**
   * An authenticated socket of the user's on one instance, keeping every push it receives by
   * live event name (`of('message')`).
   */
  async function listen(userId: string, baseUrl = service.baseUrl): Promise<LiveListener> {
    const socket = connectSocket(service.tokenFor(userId), baseUrl)
    const received = new Map<string, unknown[]>()
    socket.onAny((name: string, payload: unknown) => {
      received.set(name, [...(received.get(name) ?? []), payload])
    })
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    const answer = await new Promise<{ success: boolean }>((resolve) => {
      socket.once('authenticated', resolve)
      socket.emit('authenticate', userId)
    })
    if (!answer.success) throw new Error(`socket of ${userId} not authenticated`)
    return { socket, of: <T>(name: string) => (received.get(name) ?? []) as T[] }
  }

  return {
    ...service,
    registerUser,
    listen,
    jobRequestEvent,
    messageSentEvent,
    messageReadEvent,
    messageTakenDownEvent,
    storedFor,
    waitForStored,
    connectSocket,
  }
}

export type NotificationsTestApp = Awaited<ReturnType<typeof startNotificationsTestApp>>
