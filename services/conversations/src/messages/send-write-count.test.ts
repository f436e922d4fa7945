import type { CommandStartedEvent } from 'mongodb'
import { waitFor } from '@marketplace/service-kit/testing'
import { bucketId } from './message-document'
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
    'a send with a clientId writes the claim, both inboxes in one command, the conversation and the bucket; the relay clears the bucket once',
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

      const writes: string[] = []
      const record = (event: CommandStartedEvent) => {
        if (WRITE_COMMANDS.has(event.commandName)) {
          writes.push(`${event.commandName} ${String(event.command[event.commandName])}`)
        }
      }
      const client = app.app.mongo.client
      client.on('commandStarted', record)
      try {
        const sent = await worker.post(path, { text: 'Second', clientId: 'second' })
        expect(sent.status).toBe(201)
        // The relay publishes message.sent and then clears the bucket's outbox: its write
        // is part of what a message costs.
        await waitFor(relayed, { timeoutMs: EVENT_WAIT_MS, what: 'the second message relayed' })
        await new Promise((resolve) => setTimeout(resolve, 500))
      } finally {
        client.off('commandStarted', record)
      }
      expect(writes.sort()).toEqual(
        [
          'findAndModify conversations',
          'insert message_client_ids',
          'update inboxes',
          'update message_buckets',
          'update message_buckets',
        ].sort(),
      )
      // Both inboxes changed by that one command.
      const inboxes = app.db.collection<{
        _id: string
        unreadTotal: number
        sending?: { count: number }
      }>('inboxes')
      expect((await inboxes.findOne({ _id: ownerId }))?.unreadTotal).toBe(2)
      expect((await inboxes.findOne({ _id: workerId }))?.sending?.count).toBe(2)
    },
    EVENT_WAIT_MS * 2,
  )
})
