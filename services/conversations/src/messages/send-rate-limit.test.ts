import { CONVERSATION_LIMITS, CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
} from '../test/conversations-test-app'

const LIMIT = CONVERSATION_LIMITS.messagesPerMinute

describe('conversations service: 30 messages a minute per user (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_rate')
    // This run's groups are new: let them read the broker's history (every earlier suite's
    // events) before the tests publish theirs.
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  it(
    'lets exactly 30 of 40 parallel sends through, across conversations, then answers 429 with Retry-After',
    async () => {
      const chattyId = await app.registerUser('Chad', 'Chatty')
      const chatty = app.clientFor(chattyId)
      const firstOwner = await app.registerUser('Olga', 'Owner')
      const secondOwner = await app.registerUser('Otto', 'Owner')
      const first = await app.requestPost(chattyId, firstOwner, 'First job')
      const second = await app.requestPost(chattyId, secondOwner, 'Second job')

      const answers = await Promise.all(
        Array.from({ length: LIMIT + 10 }, (_, i) =>
          chatty.post(`/api/conversations/${(i % 2 ? first : second).conversationId}/messages`, {
            text: `Message ${i}`,
          }),
        ),
      )
      expect(answers.filter((a) => a.status === 201)).toHaveLength(LIMIT)
      const refused = answers.filter((a) => a.status === 429)
      expect(refused).toHaveLength(10)

      // Real HTTP: the header, as the client reads it.
      const response = await fetch(
        `${app.baseUrl}/api/conversations/${first.conversationId}/messages`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${app.tokenFor(chattyId)}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ text: 'One more' }),
        },
      )
      expect(response.status).toBe(429)
      const retryAfter = Number(response.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      const body = (await response.json()) as { message: string; code: string }
      expect(body.code).toBe('TOO_MANY_REQUESTS')
      expect(body.message).toContain(`${LIMIT} a minute`)
      expect(body.message).toMatch(/Try again in \d+ seconds?\./)
      expect(refused[0]!.body.message).toMatch(/^You are sending messages too fast/)

      // Only what was let through was stored.
      const stored = await Promise.all(
        [first, second].map(
          async (request) =>
            (await chatty.get(`/api/conversations/${request.conversationId}/messages?before=1000`))
              .body.items.length,
        ),
      )
      expect(stored[0]! + stored[1]!).toBe(LIMIT)
      // The recipients' unread counts go in the same bulk write as the budget: a refused send
      // counted for nobody.
      const unread = await Promise.all(
        [firstOwner, secondOwner].map(
          async (ownerId) =>
            (await app.clientFor(ownerId).get('/api/conversations/unread')).body.unreadTotal,
        ),
      )
      expect(unread).toEqual(stored)

      // The budget is the user's: the other side still writes.
      const reply = await app
        .clientFor(firstOwner)
        .post(`/api/conversations/${first.conversationId}/messages`, { text: 'Slow down' })
      expect(reply.status).toBe(201)
      expect(CONVERSATION_MESSAGES.tooManyMessages(1)).toContain('1 second.')
    },
    EVENT_WAIT_MS * 2,
  )
})
