import {
  CONVERSATIONS_COLLECTION,
  type ConversationDocument,
} from '../conversations/conversation-document'
import {
  startConversationsTestApp,
  type ConversationsTestApp,
  type OpenedRequest,
} from '../test/conversations-test-app'
import { INBOXES_COLLECTION, type InboxDocument } from './inbox-document'
import { OLD_INBOXES_COLLECTION } from './move-old-inboxes'

/**
 * An upgrade from the version that kept the inboxes in `inboxes`: the inboxes it left there
 * are moved into `conversations` when an instance starts, merged with what the new version
 * wrote meanwhile, and a second start changes nothing.
 */
describe('conversations service: old inboxes moved at start-up (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp

  beforeAll(async () => {
    app = await startConversationsTestApp('move-old-inboxes')
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  interface ListAnswer {
    items: { _id: string; unreadCount: number }[]
    unreadTotal: number
  }

  it('moves every old inbox, keeps what arrived since, and a second start finds nothing', async () => {
    const onlyOldId = await app.registerUser('Olivia', 'Old')
    const bothId = await app.registerUser('Bruno', 'Both')
    const otherId = await app.registerUser('Pat', 'Partner')
    // Conversations as the service opens them: each party's inbox is written (new layout).
    const first = await app.requestPost(onlyOldId, otherId, 'Move a piano')
    const second = await app.requestPost(bothId, otherId, 'Paint a fence')
    const third = await app.requestPost(bothId, otherId, 'Mow a lawn')
    const old = app.db.collection<InboxDocument>(OLD_INBOXES_COLLECTION)
    const inboxes = app.db.collection<InboxDocument>(INBOXES_COLLECTION)
    const conversations = app.db.collection<ConversationDocument>(CONVERSATIONS_COLLECTION)
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute))
    // Three and four messages from the other party, none read (what the counts are capped by).
    const messagesIn = async (request: OpenedRequest, seq: number) =>
      conversations.updateOne({ _id: request.conversationId }, { $set: { seq } })
    await messagesIn(second, 4)
    await messagesIn(third, 3)

    // Olivia's inbox only in the old collection, as the earlier version stored it.
    await inboxes.deleteOne({ _id: onlyOldId })
    await old.insertOne({
      _id: onlyOldId,
      unreadTotal: 2,
      conversations: { [first.conversationId]: { unread: 2, lastActivityAt: at(5) } },
      sending: { windowStart: at(4), count: 1 },
    })
    // Bruno's history in the old collection (three unread in the second conversation, the
    // third one unknown to it), and since the upgrade one more message in the second
    // conversation and two in the third, counted in the new inbox.
    await old.insertOne({
      _id: bothId,
      unreadTotal: 3,
      conversations: { [second.conversationId]: { unread: 3, lastActivityAt: at(10) } },
    })
    await inboxes.updateOne(
      { _id: bothId },
      {
        $set: {
          unreadTotal: 3,
          [`conversations.${second.conversationId}`]: { unread: 1, lastActivityAt: at(20) },
          [`conversations.${third.conversationId}`]: { unread: 2, lastActivityAt: at(30) },
        },
      },
    )

    // A new instance starts: the move runs before it serves.
    await app.startReplica()
    expect(await old.countDocuments({ _id: { $in: [onlyOldId, bothId] } })).toBe(0)

    const olivia = await app.clientFor(onlyOldId).get<ListAnswer>('/api/conversations')
    expect(olivia.status).toBe(200)
    expect(olivia.body.unreadTotal).toBe(2)
    expect(olivia.body.items.map((item) => [item._id, item.unreadCount])).toEqual([
      [first.conversationId, 2],
    ])
    const bruno = await app.clientFor(bothId).get<ListAnswer>('/api/conversations')
    expect(bruno.body.unreadTotal).toBe(6)
    expect(
      Object.fromEntries(bruno.body.items.map((item) => [item._id, item.unreadCount])),
    ).toEqual({ [second.conversationId]: 4, [third.conversationId]: 2 })
    const badge = await app
      .clientFor(bothId)
      .get<{ unreadTotal: number }>('/api/conversations/unread')
    expect(badge.body.unreadTotal).toBe(6)
    const movedOlivia = await inboxes.findOne({ _id: onlyOldId })
    expect(movedOlivia?.conversations[first.conversationId]?.lastActivityAt).toEqual(at(5))
    expect(movedOlivia?.sending).toBeUndefined()
    // The later activity of the two.
    const movedBruno = await inboxes.findOne({ _id: bothId })
    expect(movedBruno?.conversations[second.conversationId]?.lastActivityAt).toEqual(at(20))

    // A second start has nothing to move and changes nothing.
    const before = await inboxes.find({ _id: { $in: [onlyOldId, bothId] } }).toArray()
    await app.startReplica()
    const after = await inboxes.find({ _id: { $in: [onlyOldId, bothId] } }).toArray()
    expect(after).toEqual(before)
  }, 300_000)

  it('an inbox claimed by a start that crashed after merging is not counted twice', async () => {
    const userId = await app.registerUser('Carla', 'Crash')
    const otherId = await app.registerUser('Quinn', 'Quiet')
    const request = await app.requestPost(userId, otherId, 'Fix a tap')
    const old = app.db.collection<InboxDocument & { moveId?: string }>(OLD_INBOXES_COLLECTION)
    const inboxes = app.db.collection<InboxDocument & { movedIn?: Record<string, true> }>(
      INBOXES_COLLECTION,
    )
    await app.db
      .collection<ConversationDocument>(CONVERSATIONS_COLLECTION)
      .updateOne({ _id: request.conversationId }, { $set: { seq: 5 } })
    // The crashed start claimed the old inbox and merged it (its 5 unread are in the new
    // inbox with the move recorded), but did not get to delete it.
    const entry = { unread: 5, lastActivityAt: new Date(Date.UTC(2026, 10, 2)) }
    await old.insertOne({
      _id: userId,
      unreadTotal: 5,
      conversations: { [request.conversationId]: entry },
      moveId: 'crashed-move',
    })
    await inboxes.updateOne(
      { _id: userId },
      {
        $set: {
          unreadTotal: 5,
          [`conversations.${request.conversationId}`]: entry,
          'movedIn.crashed-move': true,
        },
      },
    )

    await app.startReplica()

    expect(await old.countDocuments({ _id: userId })).toBe(0)
    const list = await app.clientFor(userId).get<ListAnswer>('/api/conversations')
    expect(list.body.unreadTotal).toBe(5)
    expect(list.body.items.map((item) => [item._id, item.unreadCount])).toEqual([
      [request.conversationId, 5],
    ])
  }, 300_000)
})
