import { ObjectId } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { newMessageNotice } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { newEvent } from '@marketplace/service-kit'
import { infraEnv, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { takenDownNotice } from '../notifications/notice-of-event'
import { LIVE_INSTANCES_COLLECTION, PRESENCE_COLLECTION } from '../presence/presence-repository'
import {
  APP_URL,
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

interface MailSummary {
  ID: string
  Subject: string
}

async function mailsTo(address: string): Promise<MailSummary[]> {
  const query = encodeURIComponent(`to:${address}`)
  const answer = await fetch(`${infraEnv().mailApiUrl}/api/v1/search?query=${query}`)
  return ((await answer.json()) as { messages: MailSummary[] }).messages
}

describe('told when away: new messages and take-downs as notifications and mail (real FerretDB, Kafka, SMTP)', () => {
  let app: NotificationsTestApp
  let replicaUrl: string
  const sockets: Array<{ socket: { disconnect(): void } }> = []
  const newConversation = () => `jr:${new ObjectId().toHexString()}`
  const sender = new ObjectId().toHexString()

  /**
   * Resolves once the shared group handled every event of the conversation published so far:
   * a message of the same conversation (same key, same partition, handled in order) to an
   * absent bystander, whose notice is then stored.
   */
  async function handledUpTo(conversationId: string) {
    const bystander = app.newUserId()
    await publishEvent(
      Topics.conversations,
      app.messageSentEvent({ conversationId, senderId: sender, recipientId: bystander }),
    )
    await app.waitForStored(bystander, 1)
  }

  const send = (conversationId: string, recipientId: string, senderName = 'Sam Sender') =>
    publishEvent(
      Topics.conversations,
      app.messageSentEvent({ conversationId, senderId: sender, recipientId, senderName }),
    )

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_messages')
    replicaUrl = (await app.startReplica()).baseUrl
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    for (const { socket } of sockets) socket.disconnect()
    await app?.stop()
  })

  it('tells a recipient with no open socket once per conversation until they read it', async () => {
    const away = app.newUserId()
    const conversationId = newConversation()

    for (let i = 0; i < 3; i += 1) await send(conversationId, away, 'Ana Tester')
    await handledUpTo(conversationId)

    const [notice, ...others] = await app.storedFor(away)
    expect(others).toEqual([])
    expect(notice).toMatchObject({
      kind: 'new-message',
      message: newMessageNotice('Ana Tester'),
      link: `/messages/${conversationId}`,
      isRead: false,
    })
    // Another conversation tells on its own.
    const elsewhere = newConversation()
    await send(elsewhere, away)
    await app.waitForStored(away, 2)

    // Read: the notice that told it is read too, and the next message tells again.
    await publishEvent(
      Topics.conversations,
      app.messageReadEvent({ conversationId, readerId: away, otherId: sender }),
    )
    await send(conversationId, away, 'Ana Tester')
    await app.waitForStored(away, 3)
    const stored = await app.storedFor(away)
    expect(stored.filter((n) => n.link === `/messages/${conversationId}`)).toHaveLength(2)
    expect(stored.find((n) => n._id === notice!._id)?.isRead).toBe(true)
    expect((await app.clientFor(away).get('/api/notifications/unread-count')).body).toEqual({
      count: 2,
    })
  })

  it('tells nobody who has a socket open on any instance, and tells them again once it is closed', async () => {
    const present = app.newUserId()
    const listener = await app.listen(present, replicaUrl)
    sockets.push(listener)
    const conversationId = newConversation()

    await send(conversationId, present)
    await handledUpTo(conversationId)
    expect(await app.storedFor(present)).toEqual([])

    listener.socket.disconnect()
    const presence = app.db.collection<{ _id: string; instances: Record<string, Date> }>(
      PRESENCE_COLLECTION,
    )
    await waitFor(
      async () =>
        Object.keys((await presence.findOne({ _id: present }))?.instances ?? {}).length === 0,
      { timeoutMs: EVENT_WAIT_MS, what: 'the closed socket no longer present' },
    )
    await send(conversationId, present)
    await app.waitForStored(present, 1)
  })

  it("counts a crashed instance's sockets as closed once its heartbeat is stale", async () => {
    const stranded = app.newUserId()
    const dead = 'deadbeefdeadbeef'
    await app.db.collection<{ _id: string }>(LIVE_INSTANCES_COLLECTION).insertOne({
      _id: dead,
      host: 'gone',
      pid: 1,
      startedAt: new Date(Date.now() - 3_600_000),
      heartbeatAt: new Date(Date.now() - 120_000),
    } as never)
    const presence = app.db.collection<{ _id: string; instances: Record<string, Date> }>(
      PRESENCE_COLLECTION,
    )
    await presence.insertOne({ _id: stranded, instances: { [dead]: new Date() } })

    await send(newConversation(), stranded)

    await app.waitForStored(stranded, 1)
    // The dead entry is dropped when met.
    expect((await presence.findOne({ _id: stranded }))?.instances).toEqual({})
  })

  it('mails the notice when e-mail and Messages are on; with Messages off, neither notice nor mail', async () => {
    const mailed = await app.registerUser('Mona')
    const quiet = await app.registerUser('Quinn')
    const switched = await app.clientFor(quiet.userId).put('/api/notifications/preferences', {
      messagesEnabled: false,
    })
    expect(switched.body).toMatchObject({ messagesEnabled: false, emailEnabled: true })
    const conversationId = newConversation()

    await send(conversationId, mailed.userId, 'Ana Tester')
    await send(conversationId, quiet.userId, 'Ana Tester')
    await handledUpTo(conversationId)

    const [mail] = await waitFor(
      async () => {
        const found = await mailsTo(mailed.email)
        return found.length > 0 && found
      },
      { timeoutMs: EVENT_WAIT_MS, what: `the notice mail to ${mailed.email}` },
    )
    expect(mail!.Subject).toBe(newMessageNotice('Ana Tester'))
    const full = (await (
      await fetch(`${infraEnv().mailApiUrl}/api/v1/message/${mail!.ID}`)
    ).json()) as { Text: string }
    expect(full.Text).toContain('Hi Mona,')
    expect(full.Text).toContain(`${APP_URL}/messages/${conversationId}`)
    expect(await app.storedFor(quiet.userId)).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await mailsTo(quiet.email)).toEqual([])

    // Switched on again, without a read in between: the next message tells (nothing was told).
    await app.clientFor(quiet.userId).put('/api/notifications/preferences', {
      messagesEnabled: true,
    })
    await send(conversationId, quiet.userId, 'Ana Tester')
    await app.waitForStored(quiet.userId, 1)
  })

  it('keeps the Messages preference: on by default, saved, validated', async () => {
    const client = app.clientFor(app.newUserId())
    expect((await client.get('/api/notifications/preferences')).body).toMatchObject({
      messagesEnabled: true,
    })
    const bad = await client.put('/api/notifications/preferences', { messagesEnabled: 'no' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe(Messages.notificationPreferences.invalid('messagesEnabled'))
    const saved = await client.put('/api/notifications/preferences', { messagesEnabled: false })
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({
      emailEnabled: true,
      mobileEnabled: false,
      postRequestsEnabled: true,
      postFavoritesEnabled: true,
      requestStatusEnabled: true,
      messagesEnabled: false,
    })
    expect((await client.get('/api/notifications/preferences')).body.messagesEnabled).toBe(false)
  })

  it('tells the sender of a message a moderator took down, whatever their Messages preference', async () => {
    const author = await app.registerUser('Tom')
    const other = app.newUserId()
    await app.clientFor(author.userId).put('/api/notifications/preferences', {
      messagesEnabled: false,
    })
    const conversationId = newConversation()

    await publishEvent(
      Topics.conversations,
      app.messageTakenDownEvent({
        conversationId,
        senderId: author.userId,
        recipientId: other,
        postTitle: 'Fix a sink',
      }),
    )

    await app.waitForStored(author.userId, 1)
    expect((await app.storedFor(author.userId))[0]).toMatchObject({
      kind: 'message-taken-down',
      message: takenDownNotice('Fix a sink'),
      link: `/messages/${conversationId}`,
    })
    await handledUpTo(conversationId)
    expect(await app.storedFor(other)).toEqual([])
    const [mail] = await waitFor(
      async () => {
        const found = await mailsTo(author.email)
        return found.length > 0 && found
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'the take-down mail' },
    )
    expect(mail!.Subject).toBe(takenDownNotice('Fix a sink'))
  })

  it("forgets a purged user's notices and presence", async () => {
    const leaver = app.newUserId()
    const listener = await app.listen(leaver)
    listener.socket.disconnect()
    const conversationId = newConversation()
    const presence = app.db.collection<{ _id: string; instances: Record<string, Date> }>(
      PRESENCE_COLLECTION,
    )
    await waitFor(
      async () => {
        const record = await presence.findOne({ _id: leaver })
        return record !== null && Object.keys(record.instances).length === 0
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'a presence record, of a closed socket' },
    )
    await send(conversationId, leaver)
    await app.waitForStored(leaver, 1)

    await publishEvent(
      Topics.peopleUsers,
      newEvent('user.deleted', { aggregateId: leaver, actorId: null, data: { userId: leaver } }),
    )

    await waitFor(
      async () => {
        for (const { name } of await app.db.listCollections().toArray()) {
          const docs = await app.db.collection(name).find({}).toArray()
          if (JSON.stringify(docs).includes(leaver)) return false
        }
        return true
      },
      { timeoutMs: EVENT_WAIT_MS, what: 'nothing of the purged user left' },
    )
  })
})
