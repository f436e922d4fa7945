import { Topics } from '@marketplace/contracts/events'
import { CONVERSATION_LIMITS, CONVERSATION_MESSAGES } from '@marketplace/contracts/marketplace'
import { startEventProbe } from '@marketplace/service-kit/testing'
import { INBOXES_COLLECTION, type InboxDocument } from '../inbox/inbox-document'
import type { ConversationDocument } from '../conversations/conversation-document'
import { createInboxRepository } from '../inbox/inbox-repository'
import { CLIENT_IDS_COLLECTION, clientIdKey } from './message-document'
import { createMessagesRepository } from './messages-repository'
import { createSendRateLimit } from './send-rate-limit'
import { createSendWrite } from './send-write'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
  type OpenedRequest,
} from '../test/conversations-test-app'

interface Message {
  _id: string
  senderId: string
  text: string
  seen: boolean
}

describe('conversations service: messages (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp
  type Client = ReturnType<ConversationsTestApp['clientFor']>

  beforeAll(async () => {
    // The budget is its own test file's (send-rate-limit.test.ts): here parties send hundreds.
    app = await startConversationsTestApp('conversations_messages', {
      MESSAGES_PER_MINUTE: '10000',
    })
    // This run's groups are new: let them read the broker's history (every earlier suite's
    // events) before the tests publish theirs.
    await app.caughtUp()
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  async function pair(title = 'Move a piano') {
    const workerId = await app.registerUser('Wanda', 'Worker')
    const ownerId = await app.registerUser('Olga', 'Owner')
    const request = await app.requestPost(workerId, ownerId, title)
    return {
      request,
      workerId,
      ownerId,
      worker: app.clientFor(workerId),
      owner: app.clientFor(ownerId),
    }
  }

  const messagesPath = (request: OpenedRequest) =>
    `/api/conversations/${request.conversationId}/messages`

  /** Every message, following nextCursor from the newest page to the first. */
  async function pageThrough(client: Client, request: OpenedRequest) {
    const pages: Message[][] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `?before=${cursor}` : ''
      const page = await client.get(`${messagesPath(request)}${query}`)
      expect(page.status).toBe(200)
      pages.push(page.body.items)
      cursor = page.body.nextCursor
    } while (cursor)
    return pages
  }

  const seqOf = (message: Message) => Number(message._id.split(':').at(-1))

  it(
    'stores the trimmed text with its sender and time, and announces it with the recipient’s counts',
    async () => {
      const { request, worker, workerId, ownerId } = await pair()
      const probe = await startEventProbe(Topics.conversations)
      try {
        const sent = await worker.post(messagesPath(request), { text: '  Hi! Saturday works.  ' })
        expect(sent.status).toBe(201)
        expect(sent.body).toEqual({
          _id: `${request.conversationId}:1`,
          conversationId: request.conversationId,
          senderId: workerId,
          text: 'Hi! Saturday works.',
          sentAt: expect.any(String),
          clientId: null,
          seen: false,
          takenDown: false,
        })
        const event = await probe.waitForEvent('message.sent', request.conversationId)
        expect(event.data).toEqual({
          messageId: sent.body._id,
          conversationId: request.conversationId,
          clientId: null,
          senderId: workerId,
          senderName: 'Wanda Worker',
          recipientId: ownerId,
          postTitle: 'Move a piano',
          text: 'Hi! Saturday works.',
          sentAt: sent.body.sentAt,
          recipientUnreadCount: 1,
          recipientUnreadTotal: 1,
        })
      } finally {
        await probe.stop()
      }
    },
    EVENT_WAIT_MS * 2,
  )

  it('refuses an empty, whitespace-only or too long text, naming the limit', async () => {
    const { request, worker } = await pair()
    const limit = CONVERSATION_LIMITS.messageMaxLength
    expect(CONVERSATION_MESSAGES.textLength).toContain(String(limit))
    for (const body of [{}, { text: '' }, { text: ' \n\t  ' }, { text: 'x'.repeat(limit + 1) }]) {
      const refused = await worker.post(messagesPath(request), body)
      expect({ body, status: refused.status, answer: refused.body }).toEqual({
        body,
        status: 400,
        answer: { message: CONVERSATION_MESSAGES.textLength, code: 'INVALID_MESSAGE' },
      })
    }
    // Counted after trimming: 2,000 characters with spaces around them are fine.
    const longest = await worker.post(messagesPath(request), { text: ` ${'x'.repeat(limit)}\n` })
    expect(longest.status).toBe(201)
    expect(longest.body.text).toHaveLength(limit)
    // A mistyped field is a schema error, converted to nothing.
    const mistyped = await worker.post(messagesPath(request), { text: 42 })
    expect(mistyped.body).toEqual({
      message: 'Invalid text: Expected string',
      code: 'VALIDATION_FAILED',
    })
    const history = await worker.get(messagesPath(request))
    expect(history.body.items).toHaveLength(1)
  })

  it(
    'a retried send with the same clientId answers the stored message, stored and announced once',
    async () => {
      const { request, worker, owner } = await pair()
      const probe = await startEventProbe(Topics.conversations)
      try {
        const body = { text: 'Retry me', clientId: 'c-7f3a' }
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => worker.post(messagesPath(request), body)),
        )
        expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201])
        expect(new Set(answers.map((a) => a.body._id)).size).toBe(1)
        expect(answers[0]!.body).toMatchObject({ text: 'Retry me', clientId: 'c-7f3a' })
        const later = await worker.post(messagesPath(request), body)
        expect(later.status).toBe(200)
        expect(later.body._id).toBe(answers[0]!.body._id)
        // Another clientId is another message; the other party's own clientIds are theirs.
        expect(
          (await worker.post(messagesPath(request), { ...body, clientId: 'c-2' })).status,
        ).toBe(201)
        expect((await owner.post(messagesPath(request), body)).status).toBe(201)

        const history = await worker.get(messagesPath(request))
        expect(history.body.items.map((m: Message) => m.text)).toEqual([
          'Retry me',
          'Retry me',
          'Retry me',
        ])
        expect(
          (await owner.get(`/api/conversations/${request.conversationId}`)).body.unreadCount,
        ).toBe(2)
        await probe.waitForEvent('message.sent', request.conversationId)
        await app.caughtUp(EVENT_WAIT_MS)
        await new Promise((resolve) => setTimeout(resolve, 1000))
        expect(
          probe.events.filter(
            (e) => e.type === 'message.sent' && e.aggregateId === request.conversationId,
          ),
        ).toHaveLength(3)
      } finally {
        await probe.stop()
      }
    },
    EVENT_WAIT_MS * 2,
  )

  it(
    'a send that died after claiming its clientId is taken over by a retry 30 s later, stored once',
    async () => {
      const { request, worker, workerId } = await pair()
      // What a send leaves when its process dies between the claim and the message: the claim.
      await app.db.collection(CLIENT_IDS_COLLECTION).insertOne({
        _id: clientIdKey(request.conversationId, workerId, 'c-died') as never,
        conversationId: request.conversationId,
        senderId: workerId,
        afterSeq: 0,
        claimedAt: new Date(Date.now() - 31_000),
      })
      const retried = await worker.post(messagesPath(request), {
        text: 'Again',
        clientId: 'c-died',
      })
      expect(retried.status).toBe(201)
      const replayed = await worker.post(messagesPath(request), {
        text: 'Again',
        clientId: 'c-died',
      })
      expect(replayed.status).toBe(200)
      expect(replayed.body._id).toBe(retried.body._id)
      const history = await worker.get(messagesPath(request))
      expect(history.body.items.map((m: Message) => m.text)).toEqual(['Again'])
    },
    EVENT_WAIT_MS,
  )

  /**
   * What a slow send does with the database, step by step, with the service's own writers:
   * the numbering write (claim, budget, number, the number recorded on the claim, counts)
   * and, later, the message's own write. Between the two the test lets a retry in.
   */
  function slowSend(request: OpenedRequest, senderId: string, recipientId: string) {
    const db = app.db
    const sendWrite = createSendWrite(db, createSendRateLimit(db, { perMinute: 10_000 }))
    const messages = createMessagesRepository(db, { notifyOutbox: () => undefined })
    const inbox = createInboxRepository(db)
    const conversations = db.collection<ConversationDocument>('conversations')
    return {
      async number(clientId: string, hold: { key: string; claimedAt: Date }, claim: boolean) {
        const conversation = (await conversations.findOne({ _id: request.conversationId }))!
        const sentAt = hold.claimedAt
        return sendWrite.write({
          senderId,
          conversation,
          lastMessage: { senderId, text: 'Slow', sentAt, takenDown: false },
          claim: claim
            ? {
                _id: hold.key,
                conversationId: request.conversationId,
                senderId,
                afterSeq: conversation.seq,
                claimedAt: sentAt,
              }
            : null,
          hold,
          recipient: inbox.messageArrivedUpdate(
            recipientId,
            request.conversationId,
            sentAt,
          ) as never,
          numberAlone: async () => null,
          reread: async () => conversations.findOne({ _id: request.conversationId }),
        })
      },
      store: (seq: number, clientId: string, sentAt: Date) =>
        messages.store(
          request.conversationId,
          { seq, senderId, text: 'Slow', sentAt, clientId, takenDown: false },
          [],
        ),
    }
  }

  it(
    'a slow send that numbered its message before its retry came: stored once, under that number, whoever stores first',
    async () => {
      const { request, worker, workerId, ownerId } = await pair()
      const key = clientIdKey(request.conversationId, workerId, 'c-slow')
      const slow = slowSend(request, workerId, ownerId)
      // The first send claims the id and numbers its message, then stalls (an overloaded
      // process, a frozen database) before the message's own write.
      const claimedAt = new Date(Date.now() - 60_000)
      const numbered = await slow.number('c-slow', { key, claimedAt }, true)
      expect(numbered.lost).toBe(false)
      const seq = numbered.conversation.seq
      // Its client gave up and sent again, long after: the retry stores under that number.
      const retried = await worker.post(messagesPath(request), { text: 'Slow', clientId: 'c-slow' })
      expect(retried.status).toBe(201)
      expect(retried.body._id).toBe(`${request.conversationId}:${seq}`)
      // The first send wakes and writes its message: the copy already there stands.
      const woke = await slow.store(seq, 'c-slow', claimedAt)
      expect(woke.stored).toBe(false)
      expect(woke.message.seq).toBe(seq)
      const history = await worker.get(messagesPath(request))
      expect(history.body.items.map((m: Message) => m._id)).toEqual([retried.body._id])
      const again = await worker.post(messagesPath(request), { text: 'Slow', clientId: 'c-slow' })
      expect(again.status).toBe(200)
      expect(again.body._id).toBe(retried.body._id)
    },
    EVENT_WAIT_MS,
  )

  it(
    'a send so slow that a retry took its claim over before it numbered: the retry stores, the slow send stores nothing',
    async () => {
      const { request, worker, workerId, ownerId } = await pair()
      const key = clientIdKey(request.conversationId, workerId, 'c-late')
      const claimedAt = new Date(Date.now() - 31_000)
      // The first send's claim landed 31 s ago; the send has not numbered its message yet.
      await app.db.collection(CLIENT_IDS_COLLECTION).insertOne({
        _id: key as never,
        conversationId: request.conversationId,
        senderId: workerId,
        afterSeq: 0,
        claimedAt,
      })
      const retried = await worker.post(messagesPath(request), { text: 'Late', clientId: 'c-late' })
      expect(retried.status).toBe(201)
      // The first send wakes and numbers: its record on the claim is refused, so it learns
      // that the retry owns the message and stores nothing.
      const woke = await slowSend(request, workerId, ownerId).number(
        'c-late',
        { key, claimedAt },
        false,
      )
      expect(woke.lost).toBe(true)
      const history = await worker.get(messagesPath(request))
      expect(history.body.items.map((m: Message) => m.text)).toEqual(['Late'])
      const replayed = await worker.post(messagesPath(request), {
        text: 'Late',
        clientId: 'c-late',
      })
      expect(replayed.status).toBe(200)
      expect(replayed.body._id).toBe(retried.body._id)
    },
    EVENT_WAIT_MS,
  )

  it('a send moves the conversation to the top of the sender’s own list', async () => {
    const { request: older, worker, workerId } = await pair('Older job')
    const newer = await app.requestPost(
      workerId,
      await app.registerUser('Nina', 'Newer'),
      'Newer job',
    )
    const before = await worker.get('/api/conversations')
    expect(before.body.items[0]._id).toBe(newer.conversationId)
    expect((await worker.post(messagesPath(older), { text: 'About the older job' })).status).toBe(
      201,
    )
    const after = await worker.get('/api/conversations')
    expect(after.body.items.map((c: { _id: string }) => c._id)).toEqual([
      older.conversationId,
      newer.conversationId,
    ])
    expect(after.body.items[0].unreadCount).toBe(0)
  })

  it(
    'pages newest first, 30 a page, with no gap and no duplicate under parallel sends',
    async () => {
      const { request, worker, owner } = await pair()
      const texts = (who: string, n: number) => Array.from({ length: n }, (_, i) => `${who} ${i}`)
      await Promise.all([
        ...texts('worker', 40).map((text) => worker.post(messagesPath(request), { text })),
        ...texts('owner', 35).map((text) => owner.post(messagesPath(request), { text })),
      ])
      const pages = await pageThrough(owner, request)
      expect(pages.map((page) => page.length)).toEqual([30, 30, 15])
      const all = pages.flat()
      expect(all.map(seqOf)).toEqual(Array.from({ length: 75 }, (_, i) => 75 - i))
      expect(all.map((m) => m.text).sort()).toEqual(
        [...texts('worker', 40), ...texts('owner', 35)].sort(),
      )

      // Sends while someone pages: the pages already cursored stay where they were.
      const first = await worker.get(messagesPath(request))
      await Promise.all(
        texts('late', 20).map((text) => owner.post(messagesPath(request), { text })),
      )
      const rest: Message[] = []
      let cursor: string | null = first.body.nextCursor
      while (cursor) {
        const page = await worker.get(`${messagesPath(request)}?before=${cursor}`)
        rest.push(...page.body.items)
        cursor = page.body.nextCursor
      }
      expect([...first.body.items, ...rest].map(seqOf)).toEqual(
        Array.from({ length: 75 }, (_, i) => 75 - i),
      )
      const newest = await worker.get(messagesPath(request))
      expect(
        newest.body.items
          .slice(0, 20)
          .map((m: Message) => m.text)
          .sort(),
      ).toEqual(texts('late', 20).sort())
      for (const before of ['0', 'abc', '-3', '1.5']) {
        const bad = await worker.get(`${messagesPath(request)}?before=${before}`)
        expect({ before, status: bad.status, message: bad.body.message }).toEqual({
          before,
          status: 400,
          message: CONVERSATION_MESSAGES.invalidCursor,
        })
      }
      const start = await worker.get(`${messagesPath(request)}?before=1`)
      expect(start.body).toEqual({ items: [], nextCursor: null })
    },
    EVENT_WAIT_MS * 2,
  )

  it(
    'keeps unread counts per conversation and in total exact under parallel sends and reads',
    async () => {
      const readerId = await app.registerUser('Rae', 'Reader')
      const reader = app.clientFor(readerId)
      const firstSenderId = await app.registerUser('Sam', 'First')
      const secondSenderId = await app.registerUser('Sol', 'Second')
      const first = await app.requestPost(readerId, firstSenderId, 'First job')
      const second = await app.requestPerson(secondSenderId, readerId, 'Second job')
      const firstSender = app.clientFor(firstSenderId)
      const secondSender = app.clientFor(secondSenderId)
      const inbox = () =>
        app.db.collection<InboxDocument>(INBOXES_COLLECTION).findOne({ _id: readerId })

      const reads: Array<Promise<unknown>> = []
      await Promise.all([
        ...Array.from({ length: 25 }, (_, i) =>
          firstSender.post(messagesPath(first), { text: `one ${i}` }).then((answer) => {
            if (i % 5 === 0)
              reads.push(reader.post(`/api/conversations/${first.conversationId}/read`, {}))
            return answer
          }),
        ),
        ...Array.from({ length: 15 }, (_, i) =>
          secondSender.post(messagesPath(second), { text: `two ${i}` }),
        ),
      ])
      await Promise.all(reads)

      // The total is always the sum of the counts, and the untouched conversation counts all.
      const settled = (await inbox())!
      const counts = Object.values(settled.conversations).map((entry) => entry.unread)
      expect(settled.unreadTotal).toBe(counts.reduce((a, b) => a + b, 0))
      expect(settled.conversations[second.conversationId]!.unread).toBe(15)
      expect(settled.conversations[first.conversationId]!.unread).toBeLessThanOrEqual(25)

      const firstRead = await reader.post(`/api/conversations/${first.conversationId}/read`, {})
      expect(firstRead.body).toEqual({ unreadCount: 0, unreadTotal: 15 })
      const list = await reader.get('/api/conversations')
      expect(list.body.unreadTotal).toBe(15)
      expect(
        Object.fromEntries(
          list.body.items.map((c: { _id: string; unreadCount: number }) => [c._id, c.unreadCount]),
        ),
      ).toEqual({ [first.conversationId]: 0, [second.conversationId]: 15 })
      const secondRead = await reader.post(`/api/conversations/${second.conversationId}/read`, {})
      expect(secondRead.body).toEqual({ unreadCount: 0, unreadTotal: 0 })
      expect((await reader.get('/api/conversations/unread')).body).toEqual({ unreadTotal: 0 })

      await Promise.all(
        Array.from({ length: 3 }, (_, i) =>
          firstSender.post(messagesPath(first), { text: `more ${i}` }),
        ),
      )
      expect((await reader.get('/api/conversations/unread')).body).toEqual({ unreadTotal: 3 })
      expect(
        (await reader.get(`/api/conversations/${first.conversationId}`)).body.unreadCount,
      ).toBe(3)
      // The sender's own messages never count for the sender.
      expect((await firstSender.get('/api/conversations/unread')).body).toEqual({ unreadTotal: 0 })
    },
    EVENT_WAIT_MS * 2,
  )

  it(
    'shows "Seen" on a message once the recipient read it, and announces the read',
    async () => {
      const { request, worker, owner, ownerId, workerId } = await pair()
      await worker.post(messagesPath(request), { text: 'One' })
      await worker.post(messagesPath(request), { text: 'Two' })
      const before = await worker.get(messagesPath(request))
      expect(before.body.items.map((m: Message) => m.seen)).toEqual([false, false])

      const probe = await startEventProbe(Topics.conversations)
      try {
        const read = await owner.post(`/api/conversations/${request.conversationId}/read`, {})
        expect(read.body).toEqual({ unreadCount: 0, unreadTotal: 0 })
        const event = await probe.waitForEvent('message.read', request.conversationId)
        expect(event.data).toEqual({
          conversationId: request.conversationId,
          readerId: ownerId,
          otherId: workerId,
          readAt: expect.any(String),
          readerUnreadTotal: 0,
        })
        // Reading again with nothing new says nothing.
        await owner.post(`/api/conversations/${request.conversationId}/read`, {})
        await new Promise((resolve) => setTimeout(resolve, 1500))
        expect(
          probe.events.filter(
            (e) => e.type === 'message.read' && e.aggregateId === request.conversationId,
          ),
        ).toHaveLength(1)
      } finally {
        await probe.stop()
      }

      const after = await worker.get(messagesPath(request))
      expect(after.body.items.map((m: Message) => m.seen)).toEqual([true, true])
      await worker.post(messagesPath(request), { text: 'Three' })
      const latest = await owner.get(messagesPath(request))
      expect(latest.body.items.map((m: Message) => [m.text, m.seen])).toEqual([
        ['Three', false],
        ['Two', true],
        ['One', true],
      ])
      // The reader's own unread messages to the other side are not "Seen" by reading.
      await owner.post(messagesPath(request), { text: 'Reply' })
      await owner.post(`/api/conversations/${request.conversationId}/read`, {})
      const own = await owner.get(messagesPath(request))
      expect(own.body.items[0]).toMatchObject({ text: 'Reply', seen: false })
    },
    EVENT_WAIT_MS * 2,
  )
})
