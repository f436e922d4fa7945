import { Topics, type DomainEvent } from '@marketplace/contracts/events'
import {
  CONVERSATION_MESSAGES,
  DELETED_USER_NAME,
  READ_ONLY_MESSAGES,
} from '@marketplace/contracts/marketplace'
import { newEvent } from '@marketplace/service-kit'
import {
  publishEvent,
  recordPublishedEvents,
  startEventProbe,
  waitFor,
} from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  startConversationsTestApp,
  type ConversationsTestApp,
  type OpenedRequest,
} from '../test/conversations-test-app'
import { CONVERSATIONS_COLLECTION } from './conversation-document'

describe('conversations service: conversations (real FerretDB and Kafka)', () => {
  let app: ConversationsTestApp
  type Client = ReturnType<ConversationsTestApp['clientFor']>
  let workerId: string
  let ownerId: string
  let worker: Client
  let owner: Client

  beforeAll(async () => {
    app = await startConversationsTestApp('conversations')
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

  const send = (client: Client, request: OpenedRequest, text: string) =>
    client.post(`/api/conversations/${request.conversationId}/messages`, { text })

  it(
    'a request on a post opens one conversation between the worker and the owner, once',
    async () => {
      const probe = await startEventProbe(Topics.conversations)
      // The other test files' apps run beside this one and read the same request topics, so
      // each opens this conversation in its own database and announces it too: "once" is
      // counted on what this app's producer sends, not on the shared topic.
      const sent = recordPublishedEvents(app.app)
      try {
        await app.setPicture(workerId, 'https://img.example.com/wanda.jpg')
        const request = await app.requestPost(workerId, ownerId, 'Move a piano', 'Wanda Worker')

        // The same event delivered again (another partition's replay, a redelivery) opens nothing new.
        await publishEvent(
          Topics.jobsRequests,
          newEvent('job-request.created', {
            aggregateId: request.requestId,
            actorId: workerId,
            data: {
              requestId: request.requestId,
              postId: request.postId,
              postTitle: 'Move a piano',
              ownerId,
              requesterId: workerId,
              requesterName: 'Wanda Worker',
              status: 'pending',
            },
          }),
        )

        const opened = (await probe.waitForEvent(
          'conversation.opened',
          request.conversationId,
        )) as DomainEvent<'conversation.opened'>
        expect(opened.data).toEqual({
          conversationId: request.conversationId,
          requestKind: 'post-request',
          requestId: request.requestId,
          postId: request.postId,
          postTitle: 'Move a piano',
          requesterId: workerId,
          otherId: ownerId,
          openedAt: expect.any(String),
        })

        const asOwner = await owner.get(`/api/conversations/${request.conversationId}`)
        expect(asOwner.status).toBe(200)
        expect(asOwner.body).toEqual({
          _id: request.conversationId,
          requestKind: 'post-request',
          requestId: request.requestId,
          postId: request.postId,
          postTitle: 'Move a piano',
          otherParty: {
            userId: workerId,
            name: 'Wanda Worker',
            profilePicture: 'https://img.example.com/wanda.jpg',
          },
          lastMessage: null,
          lastActivityAt: opened.data.openedAt,
          unreadCount: 0,
          readOnly: null,
          readOnlyMessage: null,
          openedAt: opened.data.openedAt,
        })
        const asWorker = await worker.get(`/api/conversations/by-request/${request.requestId}`)
        expect(asWorker.body).toMatchObject({
          _id: request.conversationId,
          otherParty: { userId: ownerId, name: 'Olga Owner', profilePicture: null },
        })

        // Give a replay time to land, then count: one conversation, one event.
        await app.caughtUp(EVENT_WAIT_MS)
        expect(
          await app.db
            .collection(CONVERSATIONS_COLLECTION)
            .countDocuments({ _id: request.conversationId as never }),
        ).toBe(1)
        expect(
          sent
            .events()
            .filter(
              (e) => e.type === 'conversation.opened' && e.aggregateId === request.conversationId,
            ),
        ).toHaveLength(1)
      } finally {
        sent.stop()
        await probe.stop()
      }
    },
    EVENT_WAIT_MS * 2,
  )

  it(
    'a request to a person opens a conversation whose requester is the post owner',
    async () => {
      const request = await app.requestPerson(ownerId, workerId, 'Paint a fence')
      const asWorker = await worker.get(`/api/conversations/${request.conversationId}`)
      expect(asWorker.body).toMatchObject({
        requestKind: 'person-request',
        postTitle: 'Paint a fence',
        otherParty: { userId: ownerId, name: 'Olga Owner' },
      })
      const asOwner = await owner.get(`/api/conversations/by-request/${request.requestId}`)
      expect(asOwner.body).toMatchObject({
        _id: request.conversationId,
        otherParty: { userId: workerId, name: 'Wanda Worker' },
      })
    },
    EVENT_WAIT_MS * 2,
  )

  it(
    'lists the caller’s conversations newest activity first, 30 a page, with the unread total',
    async () => {
      const listerId = await app.registerUser('Lise', 'Lister')
      const lister = app.clientFor(listerId)
      const requests: OpenedRequest[] = []
      for (let i = 0; i < 32; i += 1) {
        requests.push(await app.requestPost(listerId, ownerId, `Job ${i}`))
      }
      // Activity moves a conversation up: the owner writes in the oldest one.
      expect((await send(owner, requests[0]!, 'Still interested?')).status).toBe(201)

      const first = await lister.get('/api/conversations')
      expect(first.status).toBe(200)
      expect(first.body.items).toHaveLength(30)
      expect(first.body.unreadTotal).toBe(1)
      expect(first.body.items[0]).toMatchObject({
        _id: requests[0]!.conversationId,
        unreadCount: 1,
        lastMessage: { text: 'Still interested?', senderId: ownerId },
      })
      expect(first.body.items[1]._id).toBe(requests[31]!.conversationId)
      const second = await lister.get(
        `/api/conversations?cursor=${encodeURIComponent(first.body.nextCursor)}`,
      )
      expect(second.body.nextCursor).toBeNull()
      const ids = [...first.body.items, ...second.body.items].map((c: { _id: string }) => c._id)
      expect(new Set(ids).size).toBe(32)
      expect(ids.sort()).toEqual(requests.map((r) => r.conversationId).sort())

      expect((await lister.get('/api/conversations/unread')).body).toEqual({ unreadTotal: 1 })
      const bad = await lister.get('/api/conversations?cursor=nonsense')
      expect(bad.status).toBe(400)
      expect(bad.body.message).toBe(CONVERSATION_MESSAGES.invalidCursor)
    },
    EVENT_WAIT_MS * 3,
  )

  it(
    'nobody but the two parties can list, read, write, mark read or report (BOLA), and a guest gets 401',
    async () => {
      const request = await app.requestPost(workerId, ownerId, 'Private job')
      const sent = await send(worker, request, 'Only for the owner')
      expect(sent.status).toBe(201)
      const messageId = sent.body._id
      const intruder = app.clientFor(await app.registerUser('Ivan', 'Intruder'))
      const id = request.conversationId
      const attempts = [
        await intruder.get(`/api/conversations/${id}`),
        await intruder.get(`/api/conversations/by-request/${request.requestId}`),
        await intruder.get(`/api/conversations/${id}/messages`),
        await intruder.post(`/api/conversations/${id}/messages`, { text: 'Hello?' }),
        await intruder.post(`/api/conversations/${id}/read`, {}),
        await intruder.post(`/api/conversations/${id}/messages/${messageId}/report`, {
          type: 'scam',
        }),
      ]
      for (const attempt of attempts) {
        expect({ status: attempt.status, body: attempt.body }).toEqual({
          status: 404,
          body: { message: CONVERSATION_MESSAGES.notFound, code: 'CONVERSATION_NOT_FOUND' },
        })
        expect(attempt.text).not.toContain('Only for the owner')
      }
      const list = await intruder.get('/api/conversations')
      expect(list.body).toEqual({ items: [], nextCursor: null, unreadTotal: 0 })
      expect((await intruder.get('/api/conversations/unread')).body).toEqual({ unreadTotal: 0 })
      // Nothing the intruder tried changed the conversation.
      const history = await owner.get(`/api/conversations/${id}/messages`)
      expect(history.body.items.map((m: { text: string }) => m.text)).toEqual([
        'Only for the owner',
      ])
      expect((await owner.get(`/api/conversations/${id}`)).body.unreadCount).toBe(1)

      const guest = app.clientFor(null)
      const anonymous = [
        await guest.get('/api/conversations'),
        await guest.get('/api/conversations/unread'),
        await guest.get(`/api/conversations/by-request/${request.requestId}`),
        await guest.get(`/api/conversations/${id}`),
        await guest.get(`/api/conversations/${id}/messages`),
        await guest.post(`/api/conversations/${id}/messages`, { text: 'Hi' }),
        await guest.post(`/api/conversations/${id}/read`, {}),
        await guest.post(`/api/conversations/${id}/messages/${messageId}/report`, { type: 'scam' }),
      ]
      expect(anonymous.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 401, 401])
      // Unknown and malformed ids answer as a foreign one does.
      for (const path of [
        '/api/conversations/jr:0123456789abcdef01234567',
        '/api/conversations/x',
      ]) {
        expect((await owner.get(path)).status).toBe(404)
      }
    },
    EVENT_WAIT_MS * 2,
  )

  it(
    'becomes read-only when the request is withdrawn or deleted, saying why, and refuses a send with 409',
    async () => {
      const withdrawn = await app.requestPost(workerId, ownerId, 'Withdrawn job')
      const deleted = await app.requestPost(workerId, ownerId, 'Deleted job')
      const personWithdrawn = await app.requestPerson(ownerId, workerId, 'Withdrawn ask')
      const personDeleted = await app.requestPerson(ownerId, workerId, 'Deleted ask')
      const postGone = await app.requestPost(workerId, ownerId, 'Post deleted')
      await app.deletePostRequest(withdrawn, 'requester')
      await app.deletePostRequest(deleted, 'owner')
      await app.deletePersonRequest(personWithdrawn, ownerId)
      await app.deletePersonRequest(personDeleted, workerId)
      await app.deletePost(postGone)

      const cases: Array<[OpenedRequest, keyof typeof READ_ONLY_MESSAGES]> = [
        [withdrawn, 'request-withdrawn'],
        [deleted, 'request-deleted'],
        [personWithdrawn, 'request-withdrawn'],
        [personDeleted, 'request-deleted'],
        [postGone, 'request-deleted'],
      ]
      for (const [request, reason] of cases) {
        for (const client of [worker, owner]) {
          const view = await client.get(`/api/conversations/${request.conversationId}`)
          expect(view.body).toMatchObject({
            readOnly: reason,
            readOnlyMessage: READ_ONLY_MESSAGES[reason],
          })
          const refused = await send(client, request, 'Anyone there?')
          expect({ status: refused.status, body: refused.body }).toEqual({
            status: 409,
            body: { message: READ_ONLY_MESSAGES[reason], code: 'READ_ONLY' },
          })
        }
        // The history stays readable.
        expect(
          (await owner.get(`/api/conversations/${request.conversationId}/messages`)).status,
        ).toBe(200)
      }
    },
    EVENT_WAIT_MS * 3,
  )

  it(
    'is read-only while an account is in its grace period, and open again after "Keep my account" unless closed otherwise',
    async () => {
      const leaverId = await app.registerUser('Lou', 'Leaver')
      const leaver = app.clientFor(leaverId)
      const open = await app.requestPost(leaverId, ownerId, 'Grace job')
      const alsoWithdrawn = await app.requestPost(leaverId, ownerId, 'Grace and withdrawn')

      await app.requestDeletion(leaverId)
      for (const request of [open, alsoWithdrawn]) {
        const view = await owner.get(`/api/conversations/${request.conversationId}`)
        expect(view.body).toMatchObject({
          readOnly: 'account-deletion-pending',
          readOnlyMessage: READ_ONLY_MESSAGES['account-deletion-pending'],
        })
        expect((await send(owner, request, 'Hello')).status).toBe(409)
      }
      await app.deletePostRequest(alsoWithdrawn, 'requester')

      await app.cancelDeletion(leaverId)
      const reopened = await owner.get(`/api/conversations/${open.conversationId}`)
      expect(reopened.body).toMatchObject({ readOnly: null, readOnlyMessage: null })
      expect((await send(owner, open, 'Welcome back')).status).toBe(201)
      expect((await send(leaver, open, 'Thanks')).status).toBe(201)
      const stillClosed = await owner.get(`/api/conversations/${alsoWithdrawn.conversationId}`)
      expect(stillClosed.body.readOnly).toBe('request-withdrawn')
    },
    EVENT_WAIT_MS * 3,
  )

  it(
    'the purge empties the purged user’s messages, shows "Deleted user" and closes the conversation',
    async () => {
      const goneId = await app.registerUser('Gus', 'Gone')
      await app.setPicture(goneId, 'https://img.example.com/gus.jpg')
      const gone = app.clientFor(goneId)
      const request = await app.requestPost(goneId, ownerId, 'Purged job', 'Gus Gone')
      expect((await send(gone, request, 'My phone is 555-0199')).status).toBe(201)
      expect((await send(owner, request, 'Noted')).status).toBe(201)
      expect((await send(gone, request, 'Call me at noon')).status).toBe(201)

      await app.purgeUser(goneId)
      const view = await owner.get(`/api/conversations/${request.conversationId}`)
      expect(view.body).toMatchObject({
        otherParty: { userId: goneId, name: DELETED_USER_NAME, profilePicture: null },
        lastMessage: { text: '', senderId: goneId },
        readOnly: 'account-deleted',
        readOnlyMessage: READ_ONLY_MESSAGES['account-deleted'],
      })
      const history = await owner.get(`/api/conversations/${request.conversationId}/messages`)
      expect(history.body.items.map((m: { text: string }) => m.text)).toEqual(['', 'Noted', ''])
      expect(history.text).not.toContain('555-0199')
      expect((await send(owner, request, 'Hello?')).body).toEqual({
        message: READ_ONLY_MESSAGES['account-deleted'],
        code: 'READ_ONLY',
      })
      // Nothing the purged user wrote is left anywhere in the database.
      for (const { name } of await app.db.listCollections().toArray()) {
        const documents = JSON.stringify(await app.db.collection(name).find({}).toArray())
        expect({ name, leaked: documents.includes('555-0199') }).toEqual({ name, leaked: false })
      }
      // A late user.registered of the purged user (another topic's replay) does not revive the name.
      await publishEvent(
        Topics.authUsers,
        newEvent('user.registered', {
          aggregateId: goneId,
          actorId: goneId,
          data: {
            userId: goneId,
            email: 'gus@example.com',
            firstName: 'Gus',
            lastName: 'Gone',
            phoneNumber: '(212) 555-0100',
            dateOfBirth: '1990-06-15',
            interest: 'Both',
            emailPreferences: false,
          },
        }),
      )
      await app.caughtUp(EVENT_WAIT_MS)
      await waitFor(
        async () =>
          (await owner.get(`/api/conversations/${request.conversationId}`)).body.otherParty.name ===
          DELETED_USER_NAME,
        { timeoutMs: 5_000, what: 'the name to stay "Deleted user"' },
      )
    },
    EVENT_WAIT_MS * 3,
  )
})
