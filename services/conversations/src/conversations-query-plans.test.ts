import type { CommandStartedEvent, Document } from 'mongodb'
import { Topics } from '@marketplace/contracts/events'
import { BLOCK_SETS_COLLECTION } from '@marketplace/read-models/blocks'
import { newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
} from './test/conversations-test-app'

/** A query the service sent: the collection and the filter, as they went over the wire. */
interface SentQuery {
  command: string
  collection: string
  filter: Document
}

/** The filters of the commands that read or change documents by a query. */
function queriesOf(event: CommandStartedEvent): SentQuery[] {
  const { command, commandName } = event
  const collection = command[commandName] as string
  switch (commandName) {
    case 'find':
      return [{ command: commandName, collection, filter: command.filter ?? {} }]
    case 'findAndModify':
      return [{ command: commandName, collection, filter: command.query ?? {} }]
    case 'update':
      return (command.updates as Array<{ q: Document }>).map((u) => ({
        command: commandName,
        collection,
        filter: u.q,
      }))
    case 'delete':
      return (command.deletes as Array<{ q: Document }>).map((d) => ({
        command: commandName,
        collection,
        filter: d.q,
      }))
    case 'count':
      return [{ command: commandName, collection, filter: command.query ?? {} }]
    case 'aggregate': {
      // countDocuments: a $match first.
      const match = (command.pipeline as Document[])[0]?.$match as Document | undefined
      return [{ command: commandName, collection, filter: match ?? {} }]
    }
    default:
      return []
  }
}

const isIdLookup = (filter: Document) =>
  filter._id !== undefined && (typeof filter._id !== 'object' || filter._id === null)

/** The filter's top-level fields, in order (operators like $or name no field of their own). */
const fieldsOf = (filter: Document) => Object.keys(filter).filter((key) => !key.startsWith('$'))

/** A query's shape: paths into a map keyed by ids (`conversations.<id>.unread`) are one shape. */
const shapeOf = (query: SentQuery) =>
  `${query.command} ${query.collection} ${JSON.stringify(
    fieldsOf(query.filter).map((field) =>
      field.replace(/^(conversations|messages)\.[^.]+/, '$1.<key>'),
    ),
  )}${isIdLookup(query.filter) ? ' by _id' : ''}`

describe('conversations service: every query is served by `_id` or a declared index (real FerretDB)', () => {
  let app: ConversationsTestApp
  const sent: SentQuery[] = []

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_plans', {
      OUTBOX_POLL_MS: '500',
      MESSAGES_PER_MINUTE: '1000',
    })
    // This run's groups are new: let them read the broker's history (every earlier suite's
    // events) before the tests publish theirs.
    await app.caughtUp()
    // The test URL turns command monitoring on: record every query sent from now on (the
    // service's, and the test helpers' waits, which read by `_id` as well).
    app.app.mongo.client.on('commandStarted', (event: CommandStartedEvent) => {
      sent.push(...queriesOf(event))
    })
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  it(
    'runs every use case, then explains each query it sent',
    async () => {
      // Every route and every handler, once.
      const workerId = await app.registerUser('Wanda', 'Worker')
      const ownerId = await app.registerUser('Olga', 'Owner')
      await app.setPicture(workerId, 'https://img.example.com/w.jpg')
      const worker = app.clientFor(workerId)
      const owner = app.clientFor(ownerId)
      const onPost = await app.requestPost(workerId, ownerId)
      const toPerson = await app.requestPerson(ownerId, workerId)
      const path = `/api/conversations/${onPost.conversationId}`
      for (let i = 0; i < 35; i += 1) {
        expect(
          (await worker.post(`${path}/messages`, { text: `m${i}`, clientId: `c${i}` })).status,
        ).toBe(201)
      }
      expect((await worker.post(`${path}/messages`, { text: 'm0', clientId: 'c0' })).status).toBe(
        200,
      )
      const reply = await owner.post(`${path}/messages`, { text: 'Reply' })
      const first = await worker.get(`${path}/messages`)
      await worker.get(`${path}/messages?before=${first.body.nextCursor}`)
      const list = await owner.get('/api/conversations')
      expect(list.body.items).toHaveLength(2)
      await owner.get(`/api/conversations?cursor=${encodeURIComponent(`${Date.now()}.zz`)}`)
      await owner.get('/api/conversations/unread')
      await owner.get(`/api/conversations/by-request/${onPost.requestId}`)
      await owner.get(path)
      await owner.post(`${path}/read`, {})
      expect(
        (await worker.post(`${path}/messages/${reply.body._id}/report`, { type: 'scam' })).status,
      ).toBe(201)
      await app.resolveReport(reply.body._id, 'take-down')
      // A block and its lifting (docs/blocking.md): the read model, then a read that honours it.
      for (const type of ['user.blocked', 'user.unblocked'] as const) {
        await publishEvent(
          Topics.peopleUsers,
          newEvent(type, {
            aggregateId: ownerId,
            actorId: ownerId,
            data: { blockerId: ownerId, blockedId: workerId },
          }),
        )
        await waitFor(
          async () =>
            ((
              await app.db
                .collection<{ _id: string; blocked?: string[] }>(BLOCK_SETS_COLLECTION)
                .findOne({ _id: ownerId })
            )?.blocked?.includes(workerId) ?? false) ===
            (type === 'user.blocked'),
          { timeoutMs: EVENT_WAIT_MS, what: `${type} handled` },
        )
        await owner.get(path)
      }
      await app.requestDeletion(ownerId)
      await app.cancelDeletion(ownerId)
      await app.deletePersonRequest(toPerson, ownerId)
      const another = await app.requestPost(workerId, ownerId, 'Deleted with its post')
      await app.deletePost(another)
      await app.purgeUser(workerId)
      // The relay's sweep (OUTBOX_POLL_MS) has run at least once.
      await new Promise((resolve) => setTimeout(resolve, 1500))

      const indexes = new Map<string, string[][]>()
      for (const { name } of await app.db.listCollections().toArray()) {
        const declared = await app.db.collection(name).indexes()
        indexes.set(
          name,
          declared.map((index) => Object.keys(index.key as Document)),
        )
      }

      const problems: string[] = []
      const checked = new Set<string>()
      for (const query of sent) {
        const shape = shapeOf(query)
        if (checked.has(shape)) continue
        checked.add(shape)
        if (isIdLookup(query.filter)) {
          const plan = await app.db.command({
            explain: { find: query.collection, filter: query.filter, limit: 1 },
          })
          if (plan.filterPushdown !== true) {
            problems.push(`${shape}: not pushed down (${JSON.stringify(plan.filterPushdown)})`)
          }
          continue
        }
        const fields = fieldsOf(query.filter)
        const served = (indexes.get(query.collection) ?? []).some(
          (keys) =>
            fields.length > 0 &&
            fields.length <= keys.length &&
            new Set(keys.slice(0, fields.length)).size === fields.length &&
            fields.every((field) => keys.slice(0, fields.length).includes(field)),
        )
        if (!served) problems.push(`${shape}: no declared index starts with ${fields.join(', ')}`)
      }
      expect(problems).toEqual([])
      // The use cases' own queries were among those checked (a typo in a route would skip them).
      const expected = [
        // A send's one bulk write: the claim, the budget, the number (a compare-and-set, only
        // while the request is open) and the recipient's unread counts.
        'update conversations ["_id","claimedAt"] by _id',
        'update conversations ["_id","sending.windowStart","sending.count"] by _id',
        'update conversations ["_id","seq","closedBy"] by _id',
        'update conversations ["_id","conversations.<key>"] by _id',
        'findAndModify conversations ["_id","conversations.<key>.unread"] by _id',
        'find message_buckets ["_id"] by _id',
        'update message_buckets ["_id","messages.<key>.takenDown"] by _id',
        'delete conversations ["conversationId","senderId"]',
        'delete message_client_ids ["conversationId","senderId"]',
        'delete message_reports ["reporterId"]',
        'find conversations ["outboxPending"]',
      ]
      expect(expected.filter((shape) => !checked.has(shape))).toEqual([])
      // The use cases did reach the database: the check saw the service's own collections.
      const collections = new Set(sent.map((query) => query.collection))
      for (const name of [
        'conversations',
        'message_buckets',
        'message_client_ids',
        'message_reports',
        'post_conversations',
        'users',
        BLOCK_SETS_COLLECTION,
      ]) {
        expect(collections).toContain(name)
      }
    },
    EVENT_WAIT_MS * 3,
  )
})
