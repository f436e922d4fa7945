import { READ_ONLY_MESSAGES } from '@marketplace/contracts/marketplace'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
} from '../test/conversations-test-app'
import { createBlockAnnouncer } from '@marketplace/read-models/testing'

/**
 * Blocking in conversations (docs/blocking.md): once either party blocked the other, their
 * conversation is read-only for both, with a neutral reason that does not say who blocked
 * (the blocked person is not told), and a message is refused both ways. Unblocking opens it
 * again; a third party's conversations are untouched.
 */
describe('conversations service: blocking (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp
  let announce: ReturnType<typeof createBlockAnnouncer>

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_blocking', {
      MESSAGES_PER_MINUTE: '1000',
    })
    announce = createBlockAnnouncer(app.db, { timeoutMs: EVENT_WAIT_MS })
    await app.caughtUp()
  }, 600_000)
  afterAll(async () => {
    await app?.stop()
  })

  it('makes the conversation read-only for both with a neutral reason, refuses messages both ways, and unblocking reopens it', async () => {
    const workerId = await app.registerUser('Wendy', 'Worker')
    const ownerId = await app.registerUser('Oscar', 'Owner')
    const bystanderId = await app.registerUser('Bea', 'Bystander')
    const request = await app.requestPost(workerId, ownerId, 'Walk a dog')
    const other = await app.requestPost(bystanderId, ownerId, 'Feed a cat')
    const worker = app.clientFor(workerId)
    const owner = app.clientFor(ownerId)
    const path = `/api/conversations/${request.conversationId}`
    expect((await worker.post(`${path}/messages`, { text: 'Hello!' })).status).toBe(201)

    // The owner blocks the worker.
    await announce('user.blocked', ownerId, workerId)

    for (const client of [worker, owner]) {
      const view = await client.get(path)
      expect(view.status).toBe(200)
      expect(view.body.readOnly).toBe('unavailable')
      expect(view.body.readOnlyMessage).toBe(READ_ONLY_MESSAGES.unavailable)
      // The message says nothing of a block, nor of who made it.
      expect(view.body.readOnlyMessage).not.toMatch(/block/i)
      const listed = (await client.get('/api/conversations')).body.items as Array<{
        _id: string
        readOnly: string | null
      }>
      expect(listed.find((item) => item._id === request.conversationId)?.readOnly).toBe(
        'unavailable',
      )
      const refused = await client.post(`${path}/messages`, { text: 'Are you there?' })
      expect(refused.status).toBe(409)
      expect(refused.body.message).toBe(READ_ONLY_MESSAGES.unavailable)
    }
    // What was said before stays readable to both.
    const history = await worker.get(`${path}/messages`)
    expect(history.status).toBe(200)
    expect(JSON.stringify(history.body)).toContain('Hello!')
    // Nobody else's conversation is touched: the owner still talks with the bystander.
    const otherPath = `/api/conversations/${other.conversationId}`
    expect((await owner.get(otherPath)).body.readOnly).toBeNull()
    expect((await owner.post(`${otherPath}/messages`, { text: 'Still on?' })).status).toBe(201)

    await announce('user.unblocked', ownerId, workerId)
    expect((await worker.get(path)).body.readOnly).toBeNull()
    expect((await worker.post(`${path}/messages`, { text: 'Back again' })).status).toBe(201)
    expect((await owner.post(`${path}/messages`, { text: 'Welcome back' })).status).toBe(201)
  }, 240_000)
})
