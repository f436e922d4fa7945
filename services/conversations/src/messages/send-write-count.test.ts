import type { CommandStartedEvent } from 'mongodb'
import { waitFor } from '@marketplace/service-kit/testing'
import { INBOXES_COLLECTION } from '../inbox/inbox-document'
import { bucketId, bucketOf } from './message-document'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
} from '../test/conversations-test-app'

/** The commands that change documents, as the driver names them. */
const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify'])

describe('conversations service: the database writes of one message (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_send_writes')
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  it(
    'a send with a clientId is three writes: the claim, both inboxes and the number in one command, the bucket, and the relay clearing the bucket',
    async () => {
      const workerId = await app.registerUser('Wanda', 'Writes')
      const ownerId = await app.registerUser('Olga', 'Writes')
      const request = await app.requestPost(workerId, ownerId, 'Count the writes')
      const worker = app.clientFor(workerId)
      const path = `/api/conversations/${request.conversationId}/messages`
      // The first message makes the bucket; the one measured lands in it as every later one does.
      expect((await worker.post(path, { text: 'First', clientId: 'first' })).status).toBe(201)
      const bucket = bucketId(request.conversationId, 0)
      const buckets = app.db.collection<{ _id: string; outboxPending?: true }>('message_buckets')
      const relayed = async () => !(await buckets.findOne({ _id: bucket }))?.outboxPending
      await waitFor(relayed, { timeoutMs: EVENT_WAIT_MS, what: 'the first message relayed' })
      // The events of the set-up above (the users, the request that opened the conversation)
      // are handled by the service's consumers on their own time: on a loaded machine their
      // writes came inside the window below. Every consumer caught up first, so only the
      // send's own writes are counted.
      await app.caughtUp()

      const writes: string[] = []
      const record = (event: CommandStartedEvent) => {
        if (WRITE_COMMANDS.has(event.commandName)) {
          writes.push(`${event.commandName} ${String(event.command[event.commandName])}`)
        }
      }
      const client = app.app.mongo.client
      client.on('commandStarted', record)
      let sentId = ''
      try {
        const sent = await worker.post(path, { text: 'Second', clientId: 'second' })
        expect(sent.status).toBe(201)
        sentId = sent.body._id
        // The relay publishes message.sent and then clears the bucket's outbox: its write
        // is part of what a message costs.
        await waitFor(relayed, { timeoutMs: EVENT_WAIT_MS, what: 'the second message relayed' })
        await new Promise((resolve) => setTimeout(resolve, 500))
      } finally {
        client.off('commandStarted', record)
      }
      expect(writes.sort()).toEqual(
        [
          // The clientId's claim, the sender's budget, the number and the recipient's counts.
          'update conversations',
          'update message_buckets',
          'update message_buckets',
        ].sort(),
      )
      // The claim is held: a retry answers the stored message and writes nothing.
      const retried = await worker.post(path, { text: 'Second', clientId: 'second' })
      expect(retried.status).toBe(200)
      // Both inboxes and the conversation changed by that one command.
      const inboxes = app.db.collection<{
        _id: string
        unreadTotal: number
        sending?: { count: number }
      }>(INBOXES_COLLECTION)
      expect((await inboxes.findOne({ _id: ownerId }))?.unreadTotal).toBe(2)
      expect((await inboxes.findOne({ _id: workerId }))?.sending?.count).toBe(2)
      const conversation = await app.db
        .collection<{ _id: string; seq: number; lastMessage: { text: string } }>('conversations')
        .findOne({ _id: request.conversationId })
      expect(conversation?.lastMessage.text).toBe('Second')
      expect(sentId).toBe(`${request.conversationId}:${conversation?.seq}`)
    },
    EVENT_WAIT_MS * 2,
  )
  /** The commands one request sent (the service answers each with its count) and its writes. */
  async function measuredSend(
    worker: ReturnType<ConversationsTestApp['clientFor']>,
    path: string,
    body: { text: string; clientId: string },
    ownerId: string,
  ) {
    const writes: string[] = []
    const record = (event: CommandStartedEvent) => {
      // Only the send's own writes: the inboxes' of this pair, the conversation and buckets.
      if (!WRITE_COMMANDS.has(event.commandName)) return
      const collection = String(event.command[event.commandName])
      if (collection === 'message_buckets' && event.command.updates?.[0]?.q?.outbox) return
      writes.push(`${event.commandName} ${collection}`)
    }
    const client = app.app.mongo.client
    client.on('commandStarted', record)
    try {
      const answer = await worker.post(path, body)
      expect(answer.status).toBe(201)
      expect(answer.commands).not.toBeNull()
      return { commands: answer.commands!, writes: writes.sort(), ownerId }
    } finally {
      client.off('commandStarted', record)
    }
  }

  it(
    'a send costs the same commands with ten times the history: two writes of its own (the relay clearing the bucket makes three), 10 commands in all',
    async () => {
      const workerId = await app.registerUser('Hana', 'History')
      const ownerId = await app.registerUser('Omar', 'History')
      const request = await app.requestPost(workerId, ownerId, 'A long conversation')
      const worker = app.clientFor(workerId)
      const path = `/api/conversations/${request.conversationId}/messages`
      expect((await worker.post(path, { text: 'Hello', clientId: 'h-0' })).status).toBe(201)
      const small = await measuredSend(worker, path, { text: 'At 1x', clientId: 'h-1' }, ownerId)

      // Ten times the history, as a long conversation leaves it: full buckets before the
      // current one and the conversation's number past them.
      const conversations = app.db.collection<{ _id: string; seq: number }>('conversations')
      const before = (await conversations.findOne({ _id: request.conversationId }))!.seq
      const grown = before * 10 + 30
      const buckets = app.db.collection<{ _id: string }>('message_buckets')
      for (let bucket = bucketOf(before + 1); bucket <= bucketOf(grown); bucket += 1) {
        const messages: Record<string, unknown> = {}
        for (let seq = bucket * 30 + 1; seq <= bucket * 30 + 30; seq += 1) {
          if (seq <= before || seq > grown) continue
          messages[`m${seq}`] = {
            seq,
            senderId: seq % 2 === 0 ? workerId : ownerId,
            text: `Old message ${seq}`,
            sentAt: new Date(Date.now() - 60_000),
            clientId: null,
            takenDown: false,
          }
        }
        const set = Object.fromEntries(
          Object.entries(messages).map(([key, value]) => [`messages.${key}`, value]),
        )
        await buckets.updateOne(
          { _id: bucketId(request.conversationId, bucket) },
          {
            $set: set,
            $setOnInsert: { conversationId: request.conversationId, bucket },
          },
          { upsert: true },
        )
      }
      await conversations.updateOne({ _id: request.conversationId }, { $set: { seq: grown } })
      const large = await measuredSend(worker, path, { text: 'At 10x', clientId: 'h-2' }, ownerId)

      const ownWrites = ['update conversations', 'update message_buckets'].sort()
      expect(small.writes).toEqual(ownWrites)
      expect(large.writes).toEqual(ownWrites)
      expect(small.commands).toBeLessThanOrEqual(10)
      expect(large.commands).toBe(small.commands)
      // The message took the number after the grown history, in the next bucket.
      const page = await worker.get(path)
      expect(page.body.items[0]).toMatchObject({
        text: 'At 10x',
        _id: `${request.conversationId}:${grown + 1}`,
      })
    },
    EVENT_WAIT_MS * 2,
  )
})
