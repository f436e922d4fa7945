import { Topics } from '@marketplace/contracts/events'
import {
  CONVERSATION_MESSAGES,
  REPORT_EXCERPT_TEXT_LENGTH,
  TAKEN_DOWN_MESSAGE_TEXT,
} from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { startEventProbe, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
  type OpenedRequest,
} from '../test/conversations-test-app'

describe('conversations service: reporting and taking down messages (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp
  type Client = ReturnType<ConversationsTestApp['clientFor']>
  let workerId: string
  let ownerId: string
  let worker: Client
  let owner: Client

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations_reports')
    // This run's groups are new: let them read the broker's history (every earlier suite's
    // events) before the tests publish theirs.
    await app.caughtUp()
    workerId = await app.registerUser('Wanda', 'Worker')
    ownerId = await app.registerUser('Olga', 'Owner')
    worker = app.clientFor(workerId)
    owner = app.clientFor(ownerId)
  }, 600_000)

  afterAll(async () => {
    await app?.stop()
  })

  const messagesPath = (request: OpenedRequest) =>
    `/api/conversations/${request.conversationId}/messages`
  const reportPath = (request: OpenedRequest, messageId: string) =>
    `${messagesPath(request)}/${encodeURIComponent(messageId)}/report`

  /** Sends one message each, in turn; answers their ids. */
  async function exchange(request: OpenedRequest, turns: Array<[Client, string]>) {
    const ids: string[] = []
    for (const [client, text] of turns) {
      const sent = await client.post(messagesPath(request), { text })
      expect(sent.status).toBe(201)
      ids.push(sent.body._id)
    }
    return ids
  }

  it(
    'a party reports a message of the other party once, and the moderators get an excerpt around it',
    async () => {
      const request = await app.requestPost(workerId, ownerId)
      const long = `Send the deposit first. ${'x'.repeat(400)}`
      const ids = await exchange(request, [
        [worker, 'm1'],
        [owner, 'm2'],
        [worker, 'm3'],
        [owner, 'm4'],
        [owner, long],
        [worker, 'm6'],
        [owner, 'm7'],
        [worker, 'm8'],
        [owner, 'm9'],
      ])
      const probe = await startEventProbe(Topics.conversations)
      try {
        const reported = await worker.post(reportPath(request, ids[4]!), {
          type: 'scam',
          description: '  Asks for money up front  ',
        })
        expect(reported.status).toBe(201)
        expect(reported.body).toEqual({
          reportId: expect.stringMatching(/^[0-9a-f]{24}$/),
          message: CONVERSATION_MESSAGES.reported,
        })
        const event = await probe.waitForEvent('message.reported', request.conversationId)
        expect(event.data).toEqual({
          reportId: reported.body.reportId,
          messageId: ids[4],
          conversationId: request.conversationId,
          reporterId: workerId,
          senderId: ownerId,
          reason: 'scam',
          description: 'Asks for money up front',
          excerpt: [1, 2, 3, 4, 5, 6, 7].map((i) => ({
            messageId: ids[i],
            senderName: [2, 5, 7].includes(i) ? 'Wanda Worker' : 'Olga Owner',
            text: i === 4 ? long.slice(0, REPORT_EXCERPT_TEXT_LENGTH) : `m${i + 1}`,
            sentAt: expect.any(String),
          })),
          createdAt: expect.any(String),
        })

        // Once per reporter and message: a repeat (even in parallel) is a 409.
        const repeats = await Promise.all(
          [1, 2, 3].map(() => worker.post(reportPath(request, ids[4]!), { type: 'other' })),
        )
        expect(repeats.map((r) => r.status)).toEqual([409, 409, 409])
        expect(repeats[0]!.body).toEqual({
          message: CONVERSATION_MESSAGES.alreadyReported,
          code: 'ALREADY_REPORTED',
        })
        // Near the start of a conversation the excerpt is shorter.
        const early = await owner.post(reportPath(request, ids[0]!), { type: 'inappropriate' })
        expect(early.status).toBe(201)
        const reports = await waitFor(
          () => {
            const found = probe.events.filter(
              (e) => e.type === 'message.reported' && e.aggregateId === request.conversationId,
            )
            return found.length === 2 && found
          },
          { timeoutMs: 30_000, what: 'the second report' },
        )
        const excerpt = (reports[1]!.data as { excerpt: Array<{ messageId: string }> }).excerpt
        expect(excerpt.map((e) => e.messageId)).toEqual(ids.slice(0, 4))
      } finally {
        await probe.stop()
      }
    },
    EVENT_WAIT_MS * 2,
  )

  it('refuses a missing reason, one’s own message and a message not in the conversation', async () => {
    const request = await app.requestPost(workerId, ownerId, 'Another job')
    const other = await app.requestPost(workerId, ownerId, 'Third job')
    const [ownMessage, theirMessage] = await exchange(request, [
      [worker, 'Mine'],
      [owner, 'Theirs'],
    ])
    const [elsewhere] = await exchange(other, [[owner, 'Elsewhere']])
    const cases: Array<[string, unknown, number, string]> = [
      [theirMessage!, {}, 400, Messages.reports.reasonRequired],
      [theirMessage!, { type: 'spam' }, 400, Messages.reports.reasonRequired],
      [ownMessage!, { type: 'scam' }, 400, Messages.reports.cannotReportYourselfServer],
      [elsewhere!, { type: 'scam' }, 404, CONVERSATION_MESSAGES.messageNotFound],
      [
        `${request.conversationId}:99`,
        { type: 'scam' },
        404,
        CONVERSATION_MESSAGES.messageNotFound,
      ],
      ['nonsense', { type: 'scam' }, 404, CONVERSATION_MESSAGES.messageNotFound],
    ]
    for (const [messageId, body, status, message] of cases) {
      const answer = await worker.post(reportPath(request, messageId), body)
      expect({ messageId, body, status: answer.status, message: answer.body.message }).toEqual({
        messageId,
        body,
        status,
        message,
      })
    }
  })

  it(
    'a take-down hides the message for both parties and tells who sent it; a dismissal changes nothing',
    async () => {
      const request = await app.requestPost(workerId, ownerId, 'Take-down job')
      const [kept, removed] = await exchange(request, [
        [owner, 'Fine message'],
        [owner, 'Offensive message'],
      ])
      expect(
        (await worker.post(reportPath(request, removed!), { type: 'inappropriate' })).status,
      ).toBe(201)
      await app.resolveReport(kept!, 'dismiss')
      const probe = await startEventProbe(Topics.conversations)
      try {
        await app.resolveReport(removed!, 'take-down')
        const event = await probe.waitForEvent('message.taken-down', request.conversationId)
        expect(event.data).toEqual({
          messageId: removed,
          conversationId: request.conversationId,
          senderId: ownerId,
          recipientId: workerId,
          postTitle: 'Take-down job',
        })
        // A second decision on the same message announces nothing more.
        await app.resolveReport(removed!, 'take-down')
        await app.caughtUp(EVENT_WAIT_MS)
        expect(
          probe.events.filter(
            (e) => e.type === 'message.taken-down' && e.aggregateId === request.conversationId,
          ),
        ).toHaveLength(1)
      } finally {
        await probe.stop()
      }
      for (const client of [worker, owner]) {
        const history = await client.get(messagesPath(request))
        expect(
          history.body.items.map((m: { text: string; takenDown: boolean }) => [
            m.text,
            m.takenDown,
          ]),
        ).toEqual([
          ['', true],
          ['Fine message', false],
        ])
        expect(history.text).not.toContain('Offensive')
        const view = await client.get(`/api/conversations/${request.conversationId}`)
        expect(view.body.lastMessage.text).toBe(TAKEN_DOWN_MESSAGE_TEXT)
        expect(view.text).not.toContain('Offensive')
      }
    },
    EVENT_WAIT_MS * 2,
  )
})
