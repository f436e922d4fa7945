import { ObjectId } from 'mongodb'
import { Topics, type DomainEvent } from '@marketplace/contracts/events'
import { PROCESSED_EVENTS_COLLECTION, newEvent } from '@marketplace/service-kit'
import { publishEvent, waitFor } from '@marketplace/service-kit/testing'
import {
  EVENT_WAIT_MS,
  postEvent,
  startPeopleTestApp,
  workerProfileBody,
  type PeopleTestApp,
} from '../test/people-test-app'

const HIDDEN_NUMBER = '(303) 555-0199'

/**
 * On the people side: the owner's view of a requester's hidden contacts follows
 * the request as this service knows it (known-job-requests.ts), not the verb of the event at
 * hand. So a job-request.created handled after the request's deletion (a dead letter
 * re-driven late, a replay) grants nothing: the deleted request keeps its access taken back.
 */
describe('people service: hidden contacts follow the request, whatever order its events come in (real FerretDB and Kafka)', () => {
  let people: PeopleTestApp
  let workerId: string

  beforeAll(async () => {
    people = await startPeopleTestApp('people_contact_viewers_replay')
    workerId = await people.registerUser('Rhea', 'Replayed')
    const worker = people.clientFor(workerId)
    expect(
      (await worker.put(`/api/users/${workerId}/worker-profile`, workerProfileBody())).status,
    ).toBe(200)
  }, 150_000)
  afterAll(() => people?.stop())

  /** Waits until the people group recorded the event as handled (its ledger entry). */
  async function handled(event: DomainEvent) {
    const ledger = people.db.collection<{ _id: string }>(PROCESSED_EVENTS_COLLECTION)
    const key = `${people.groupPrefix}people|${event.id}`
    await waitFor(async () => (await ledger.countDocuments({ _id: key })) === 1, {
      timeoutMs: EVENT_WAIT_MS,
      what: `${event.type} ${event.id} handled`,
    })
  }

  it('grants nothing on a job-request.created handled after the request was deleted', async () => {
    const ownerId = await people.registerUser('Orla', 'Owner')
    const owner = people.clientFor(ownerId)
    const seesHidden = async () =>
      ((await owner.get(`/api/users/${workerId}`)).body.contacts as Array<{ value: string }>)
        .map((contact) => contact.value)
        .includes(HIDDEN_NUMBER)
    const postId = new ObjectId().toHexString()
    const requestId = new ObjectId().toHexString()
    await publishEvent(
      Topics.jobsPosts,
      postEvent('post.created', { postId, ownerId, title: 'Haul a desk' }),
    )
    const request = {
      requestId,
      postId,
      postTitle: 'Haul a desk',
      ownerId,
      requesterId: workerId,
      requesterName: 'Rhea Replayed',
      status: 'pending' as const,
    }
    const created = () =>
      newEvent('job-request.created', { aggregateId: requestId, actorId: workerId, data: request })
    const first = created()
    await publishEvent(Topics.jobsRequests, first)
    await handled(first)
    expect(await seesHidden()).toBe(true)

    const deleted = newEvent('job-request.deleted', {
      aggregateId: requestId,
      actorId: workerId,
      data: { ...request, deletedBy: 'requester' },
    })
    await publishEvent(Topics.jobsRequests, deleted)
    await handled(deleted)
    expect(await seesHidden()).toBe(false)

    // The creation handled once more, late, under another id (so the ledger lets it through).
    const late = created()
    await publishEvent(Topics.jobsRequests, late)
    await handled(late)
    expect(await seesHidden()).toBe(false)
  }, 150_000)
})
