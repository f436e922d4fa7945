import { ObjectId, type Db, type MongoClient } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import type { RequestStatus } from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { AppError, connectMongo, ensureIndexes } from '@marketplace/service-kit'
import { testMongoUrl } from '@marketplace/service-kit/testing'
import type { DecisionRules } from './decision-rules'
import { FINAL_DECISIONS, UNDOABLE_DECISIONS } from './request-decisions'
import type { RequestDocument, RequestRole } from './request-document'
import { requestEvent } from './request-event'
import { createRequestLifecycle } from './request-lifecycle'
import { requestCollectionIndexes, type RequestCollection } from './request-collection'
import { createRequestStore, type RequestOutboxTarget } from './request-store'

// The real MongoDB-protocol server of infra/local: the unique index, the guarded update and
// the tombstone are the database's work, so they are tested against it.

interface AskDocument extends RequestDocument {
  postId: string
  postTitle: string
  /** The sender. */
  ownerId: string
  /** The receiver, who decides. */
  workerId: string
}

const REQUESTS = 'asks'
const TOMBSTONES = 'ask_tombstones'
const asks: RequestCollection<AskDocument> = {
  name: REQUESTS,
  tombstones: TOMBSTONES,
  parties: { sender: 'ownerId', receiver: 'workerId' },
  unique: { fields: ['postId', 'workerId'], index: 'one_ask_per_post_and_person' },
}
const newId = () => new ObjectId().toHexString()
const isDecidedEvent = (event: DomainEvent): event is DomainEvent<'people-request.decided'> =>
  event.type === 'people-request.decided'

describe('request lifecycle (real FerretDB)', () => {
  let mongo: { client: MongoClient; db: Db }
  const notified: RequestOutboxTarget[] = []
  const deletedBy: RequestRole[] = []

  const eventData = async (request: AskDocument) => ({
    requestId: request._id,
    postId: request.postId,
    postTitle: request.postTitle,
    ownerId: request.ownerId,
    ownerName: 'Olga Owner',
    workerId: request.workerId,
    workerName: 'Wanda Worker',
    status: request.status,
  })

  function lifecycleWith(decisions: DecisionRules) {
    const store = createRequestStore(mongo.db, asks, (target) => notified.push(target))
    const lifecycle = createRequestLifecycle({
      store,
      decisions,
      duplicate: { message: Messages.requests.alreadyRequestedPerson, code: 'ALREADY_REQUESTED' },
      events: {
        created: requestEvent('people-request.created', eventData),
        decided: requestEvent('people-request.decided', eventData),
        deleted: requestEvent('people-request.deleted', async (request, by: RequestRole) => {
          deletedBy.push(by)
          return eventData(request)
        }),
      },
    })
    return { store, lifecycle }
  }

  const stored = (id: string) => mongo.db.collection<AskDocument>(REQUESTS).findOne({ _id: id })
  const caller = (callerId: string) => ({ callerId, requestId: 'req-1' })
  const answerOf = (outcome: PromiseSettledResult<unknown>) =>
    outcome.status === 'fulfilled'
      ? 200
      : outcome.reason instanceof AppError
        ? outcome.reason.statusCode
        : outcome.reason

  async function sendAsk(
    lifecycle: ReturnType<typeof lifecycleWith>['lifecycle'],
    ownerId = newId(),
    workerId = newId(),
  ) {
    const request = await lifecycle.create(
      { postId: newId(), postTitle: 'Paint a fence', ownerId, workerId },
      caller(ownerId),
    )
    return { request, ownerId, workerId }
  }

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('request_lifecycle'))
    await ensureIndexes(mongo.db, requestCollectionIndexes(asks))
  })

  afterAll(async () => {
    await mongo.db.dropDatabase()
    await mongo.client.close()
  })

  it('creates a pending request with its created event in the same document, and names it to the relay', async () => {
    const { lifecycle } = lifecycleWith(FINAL_DECISIONS)
    const { request, ownerId, workerId } = await sendAsk(lifecycle)
    expect(request).toMatchObject({ status: 'pending', ownerId, workerId })
    expect(request.createdAt).toEqual(request.updatedAt)
    const doc = await stored(request._id)
    expect(doc?.outboxPending).toBe(true)
    expect(doc?.outbox?.map((event) => [event.type, event.aggregateId, event.actorId])).toEqual([
      ['people-request.created', request._id, ownerId],
    ])
    expect(doc?.outbox?.[0]?.requestId).toBe('req-1')
    expect(notified).toContainEqual({ collection: REQUESTS, id: request._id, outbox: doc?.outbox })
  })

  it('answers one request and one 409 with the service’s message to two parallel sends', async () => {
    const { lifecycle } = lifecycleWith(FINAL_DECISIONS)
    const fields = { postId: newId(), postTitle: 'Twice', ownerId: newId(), workerId: newId() }
    const outcomes = await Promise.allSettled([
      lifecycle.create(fields, caller(fields.ownerId)),
      lifecycle.create(fields, caller(fields.ownerId)),
    ])
    expect(outcomes.map(answerOf).sort()).toEqual([200, 409])
    const refused = outcomes.find((outcome) => outcome.status === 'rejected')
    expect((refused as PromiseRejectedResult).reason.message).toBe(
      Messages.requests.alreadyRequestedPerson,
    )
    expect(await mongo.db.collection(REQUESTS).countDocuments({ postId: fields.postId })).toBe(1)
  })

  it('lets only the receiver decide: the sender, strangers and malformed ids get 404', async () => {
    const { lifecycle } = lifecycleWith(FINAL_DECISIONS)
    const { request, ownerId } = await sendAsk(lifecycle)
    for (const [id, who] of [
      [request._id, ownerId],
      [request._id, newId()],
      ['not-an-id', ownerId],
      [newId(), ownerId],
    ]) {
      await expect(lifecycle.decide(id!, 'accepted', caller(who!))).rejects.toMatchObject({
        statusCode: 404,
        message: Messages.requests.notFound,
        code: 'REQUEST_NOT_FOUND',
      })
    }
    expect((await stored(request._id))?.status).toBe('pending')
  })

  it('checks the status before reading the request: 400 with the rules’ message', async () => {
    const { lifecycle } = lifecycleWith(FINAL_DECISIONS)
    await expect(lifecycle.decide(newId(), 'pending', caller(newId()))).rejects.toMatchObject({
      statusCode: 400,
      message: Messages.requests.decisionStatus,
    })
    const undoable = lifecycleWith(UNDOABLE_DECISIONS).lifecycle
    await expect(undoable.decide(newId(), 'maybe', caller(newId()))).rejects.toMatchObject({
      statusCode: 400,
      message: Messages.requests.invalidStatus,
    })
  })

  it('decides once under final rules, with the decided event in the same write', async () => {
    const { lifecycle } = lifecycleWith(FINAL_DECISIONS)
    const { request, workerId } = await sendAsk(lifecycle)
    const saved = await lifecycle.decide(request._id, 'accepted', caller(workerId))
    expect(saved).toMatchObject({ _id: request._id, status: 'accepted' })
    expect(saved).not.toHaveProperty('outbox')
    expect(saved.updatedAt.getTime()).toBeGreaterThanOrEqual(request.updatedAt.getTime())
    const doc = await stored(request._id)
    const decided = doc?.outbox?.find((event) => event.type === 'people-request.decided')
    expect(decided?.data).toMatchObject({ status: 'accepted' })
    await expect(lifecycle.decide(request._id, 'rejected', caller(workerId))).rejects.toMatchObject(
      { statusCode: 409, message: Messages.requests.alreadyDecided, code: 'ALREADY_DECIDED' },
    )
  })

  it('lets exactly one of two parallel final decisions land; the other gets 409', async () => {
    const { lifecycle } = lifecycleWith(FINAL_DECISIONS)
    for (let round = 0; round < 5; round += 1) {
      const { request, workerId } = await sendAsk(lifecycle)
      const outcomes = await Promise.allSettled([
        lifecycle.decide(request._id, 'accepted', caller(workerId)),
        lifecycle.decide(request._id, 'rejected', caller(workerId)),
      ])
      expect(outcomes.map(answerOf).sort()).toEqual([200, 409])
      const winner = outcomes.find((outcome) => outcome.status === 'fulfilled') as
        PromiseFulfilledResult<AskDocument> | undefined
      const doc = await stored(request._id)
      expect(doc?.status).toBe(winner?.value.status)
      const decided = (doc?.outbox ?? []).filter(isDecidedEvent)
      expect(decided.map((event) => event.data.status)).toEqual([winner?.value.status])
    }
  })

  it('applies parallel undoable decisions one after the other, each event telling its own step', async () => {
    const { lifecycle } = lifecycleWith(UNDOABLE_DECISIONS)
    const { request, workerId } = await sendAsk(lifecycle)
    const statuses: RequestStatus[] = ['accepted', 'rejected', 'pending', 'accepted']
    const outcomes = await Promise.allSettled(
      statuses.map((status) => lifecycle.decide(request._id, status, caller(workerId))),
    )
    expect(outcomes.map(answerOf)).toEqual([200, 200, 200, 200])
    const doc = await stored(request._id)
    const decided = (doc?.outbox ?? []).filter(isDecidedEvent)
    expect(decided.map((event) => event.data.status).sort()).toEqual([...statuses].sort())
    // The document holds the step that landed last.
    expect(doc?.status).toBe(decided.at(-1)?.data.status)
  })

  it('deletes for the sides the service names, with the event in a tombstone; others get 404', async () => {
    const { lifecycle, store } = lifecycleWith(FINAL_DECISIONS)
    const { request, ownerId, workerId } = await sendAsk(lifecycle)
    await expect(lifecycle.remove(request._id, caller(workerId), ['sender'])).rejects.toMatchObject(
      {
        statusCode: 404,
      },
    )
    await expect(
      lifecycle.remove(request._id, caller(newId()), ['sender', 'receiver']),
    ).rejects.toMatchObject({ statusCode: 404 })
    deletedBy.length = 0
    const removed = await lifecycle.remove(request._id, caller(ownerId), ['sender', 'receiver'])
    expect(removed).toMatchObject({ _id: request._id, status: 'pending' })
    expect(deletedBy).toEqual(['sender'])
    expect(await store.findById(request._id)).toBeNull()
    const tombstone = await mongo.db
      .collection<{ _id: string; outbox: DomainEvent[] }>(TOMBSTONES)
      .findOne({ _id: { $regex: `^${request._id}:` } })
    expect(tombstone?.outbox.map((event) => event.type)).toEqual(['people-request.deleted'])
    expect(notified).toContainEqual({ collection: TOMBSTONES, id: tombstone?._id })
    await expect(lifecycle.remove(request._id, caller(ownerId), ['sender'])).rejects.toMatchObject({
      statusCode: 404,
    })

    const other = await sendAsk(lifecycle)
    await lifecycle.remove(other.request._id, caller(other.workerId), ['receiver'])
    expect(deletedBy).toEqual(['sender', 'receiver'])
  })

  it('lists what a user sent and received, newest first, and deletes both sides of a user', async () => {
    const { lifecycle, store } = lifecycleWith(FINAL_DECISIONS)
    const userId = newId()
    const first = await sendAsk(lifecycle, userId)
    const second = await sendAsk(lifecycle, userId)
    const received = await sendAsk(lifecycle, newId(), userId)
    expect((await store.sent(userId)).map((r) => r._id)).toEqual([
      second.request._id,
      first.request._id,
    ])
    expect((await store.received(userId)).map((r) => r._id)).toEqual([received.request._id])
    expect((await store.sent(userId))[0]).not.toHaveProperty('outbox')
    await store.deleteOfUser(userId)
    expect(await store.sent(userId)).toEqual([])
    expect(await store.received(userId)).toEqual([])
  })

  it("keeps both sides' lists as the requests are: out on delete and on the other side's purge", async () => {
    const { lifecycle, store } = lifecycleWith(FINAL_DECISIONS)
    const owner = newId()
    const worker = newId()
    const kept = await sendAsk(lifecycle, owner, worker)
    const deleted = await sendAsk(lifecycle, owner, worker)
    const ids = (requests: AskDocument[]) => requests.map((r) => r._id)
    expect(ids(await store.sent(owner))).toEqual([deleted.request._id, kept.request._id])
    expect(ids(await store.received(worker))).toEqual([deleted.request._id, kept.request._id])

    await lifecycle.remove(deleted.request._id, caller(owner), ['sender'])
    expect(ids(await store.sent(owner))).toEqual([kept.request._id])
    expect(ids(await store.received(worker))).toEqual([kept.request._id])

    // A decision writes the request; the list shows its status as stored.
    await lifecycle.decide(kept.request._id, 'accepted', caller(worker))
    expect((await store.received(worker)).map((r) => r.status)).toEqual(['accepted'])

    // The worker's account is purged: the owner's list loses the request too.
    await store.deleteOfUser(worker)
    expect(await store.sent(owner)).toEqual([])
  })

  it('a second send refused by the unique index leaves one request on each side', async () => {
    const { lifecycle, store } = lifecycleWith(FINAL_DECISIONS)
    const { request, ownerId, workerId } = await sendAsk(lifecycle)
    await expect(
      lifecycle.create(
        { postId: request.postId, postTitle: 'Paint a fence', ownerId, workerId },
        caller(ownerId),
      ),
    ).rejects.toMatchObject({ statusCode: 409 })
    expect((await store.sent(ownerId)).map((r) => r._id)).toEqual([request._id])
    expect((await store.received(workerId)).map((r) => r._id)).toEqual([request._id])
  })

  it('orders requests of the same instant by id, newest id first', async () => {
    const { store } = lifecycleWith(FINAL_DECISIONS)
    const owner = newId()
    const at = new Date(Date.now() - 60_000)
    const same = [newId(), newId(), newId()].map((_id) => ({
      _id,
      postId: newId(),
      postTitle: 'Same instant',
      ownerId: owner,
      workerId: newId(),
      status: 'pending' as const,
      createdAt: at,
      updatedAt: at,
    }))
    await mongo.db.collection<AskDocument>(REQUESTS).insertMany(same)
    expect((await store.sent(owner)).map((r) => r._id)).toEqual(
      same
        .map((r) => r._id)
        .sort()
        .reverse(),
    )
  })
})
