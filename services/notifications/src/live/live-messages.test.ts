import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import type {
  LiveConversationRead,
  LiveMessage,
  LiveMessageTakenDown,
} from '@marketplace/contracts/marketplace'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { takenDownNotice } from '../notifications/notice-of-event'
import {
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

type Listener = Awaited<ReturnType<NotificationsTestApp['listen']>>

describe("conversations' messages over the live connection, two instances (real Kafka and FerretDB)", () => {
  let app: NotificationsTestApp
  let replicaUrl: string
  const listeners: Listener[] = []
  const listen = async (userId: string, baseUrl?: string) => {
    const listener = await app.listen(userId, baseUrl)
    listeners.push(listener)
    return listener
  }
  const newConversation = () => `jr:${new ObjectId().toHexString()}`
  const arrived = <T>(listener: Listener, name: string, count: number, what: string) =>
    waitFor(() => listener.of<T>(name).length >= count && listener.of<T>(name), {
      timeoutMs: EVENT_WAIT_MS,
      what,
    })

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_live_messages')
    replicaUrl = (await app.startReplica()).baseUrl
    // This run's groups are new: a push under test must not queue behind their replay.
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    for (const { socket } of listeners) socket.disconnect()
    await app?.stop()
  })

  it("brings a message to the recipient's socket with the counts, and to the sender's other sockets without them, on whichever instance holds them", async () => {
    const sender = app.newUserId()
    const recipient = app.newUserId()
    const stranger = app.newUserId()
    const recipientSocket = await listen(recipient, replicaUrl)
    const sendingTab = await listen(sender, app.baseUrl)
    const otherTab = await listen(sender, replicaUrl)
    const strangerSocket = await listen(stranger, app.baseUrl)
    const conversationId = newConversation()
    const sent = app.messageSentEvent({
      conversationId,
      senderId: sender,
      recipientId: recipient,
      senderName: 'Sam Sender',
      postTitle: 'Paint a fence',
      text: 'Hello, I can come on Saturday.',
      clientId: 'client-1',
      recipientUnreadCount: 3,
      recipientUnreadTotal: 7,
    })

    await publishEvent(Topics.conversations, sent)

    const [toRecipient] = await arrived<LiveMessage>(recipientSocket, 'message', 1, 'the push')
    expect(toRecipient).toEqual({
      message: {
        _id: sent.data.messageId,
        conversationId,
        senderId: sender,
        text: 'Hello, I can come on Saturday.',
        sentAt: sent.data.sentAt,
        clientId: 'client-1',
        seen: false,
        takenDown: false,
      },
      senderName: 'Sam Sender',
      postTitle: 'Paint a fence',
      unreadCount: 3,
      unreadTotal: 7,
    })
    for (const tab of [sendingTab, otherTab]) {
      const [toSender] = await arrived<LiveMessage>(tab, 'message', 1, "the sender's copy")
      const { unreadCount, unreadTotal, ...shared } = toRecipient!
      expect([unreadCount, unreadTotal]).toEqual([3, 7])
      expect(toSender).toEqual(shared)
    }
    // Someone else's socket never sees the text.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(strangerSocket.of('message')).toEqual([])
  })

  it('pushes a message event published twice only once', async () => {
    const sender = app.newUserId()
    const recipient = app.newUserId()
    const socket = await listen(recipient, replicaUrl)
    const conversationId = newConversation()
    const once = app.messageSentEvent({ conversationId, senderId: sender, recipientId: recipient })
    const next = app.messageSentEvent({ conversationId, senderId: sender, recipientId: recipient })

    for (const event of [once, once, once, next]) await publishEvent(Topics.conversations, event)

    // One key, one partition: when the next one is pushed, every copy was handled.
    await waitFor(
      () => socket.of<LiveMessage>('message').some((p) => p.message._id === next.data.messageId),
      { timeoutMs: EVENT_WAIT_MS, what: 'the push after the repeats' },
    )
    expect(socket.of<LiveMessage>('message').map((p) => p.message._id)).toEqual([
      once.data.messageId,
      next.data.messageId,
    ])
  })

  it("tells the sender their message was seen, and the reader's other tabs their new total", async () => {
    const sender = app.newUserId()
    const reader = app.newUserId()
    const senderSocket = await listen(sender, app.baseUrl)
    const readerOtherTab = await listen(reader, replicaUrl)
    const conversationId = newConversation()
    const read = app.messageReadEvent({
      conversationId,
      readerId: reader,
      otherId: sender,
      readerUnreadTotal: 2,
    })

    await publishEvent(Topics.conversations, read)

    const [seen] = await arrived<LiveConversationRead>(senderSocket, 'conversation-read', 1, 'Seen')
    expect(seen).toEqual({ conversationId, readerId: reader, readAt: read.data.readAt })
    const [own] = await arrived<LiveConversationRead>(
      readerOtherTab,
      'conversation-read',
      1,
      "the reader's other tab",
    )
    expect(own).toEqual({
      conversationId,
      readerId: reader,
      readAt: read.data.readAt,
      unreadTotal: 2,
    })
  })

  it("hides a taken-down message in both parties' threads and tells its sender", async () => {
    const sender = app.newUserId()
    const recipient = app.newUserId()
    const senderSocket = await listen(sender, replicaUrl)
    const recipientSocket = await listen(recipient, app.baseUrl)
    const conversationId = newConversation()
    const takenDown = app.messageTakenDownEvent({
      conversationId,
      senderId: sender,
      recipientId: recipient,
      postTitle: 'Clean a garage',
    })

    await publishEvent(Topics.conversations, takenDown)

    for (const socket of [senderSocket, recipientSocket]) {
      const [hidden] = await arrived<LiveMessageTakenDown>(
        socket,
        'message-taken-down',
        1,
        'the take-down',
      )
      expect(hidden).toEqual({ conversationId, messageId: takenDown.data.messageId })
    }
    // The sender is told as by any notification: stored, and pushed to their socket.
    const [told] = await arrived<{ notification: { kind: string; message: string; link: string } }>(
      senderSocket,
      'notification',
      1,
      "the sender's notification",
    )
    expect(told!.notification).toMatchObject({
      kind: 'message-taken-down',
      message: takenDownNotice('Clean a garage'),
      link: `/messages/${conversationId}`,
    })
    expect(recipientSocket.of('notification')).toEqual([])
    expect(await app.storedFor(recipient)).toEqual([])
  })
})
