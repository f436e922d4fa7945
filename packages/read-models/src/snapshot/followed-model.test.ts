import type { FastifyBaseLogger } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { TopicPosition } from '@marketplace/service-kit'
import { createFollowedModel, type FollowedModelOptions } from './followed-model'
import type { SnapshotHeader, SnapshotStore, StoredSnapshot } from './snapshot-store'
import { endPositions, startsWithin } from './topic-positions'

// The hand-over from a load to the model's consumer group, without a broker: the topics'
// ends and retention are given by the test (topic-positions is replaced), the store is in
// memory. What matters is where the group starts and when the model says it is ready.

jest.mock('./topic-positions', () => ({
  ...jest.requireActual('./topic-positions'),
  endPositions: jest.fn(),
  startsWithin: jest.fn(),
}))
const ends = endPositions as jest.MockedFunction<typeof endPositions>
const within = startsWithin as jest.MockedFunction<typeof startsWithin>

const at = (offset: number, partition = 0): TopicPosition => ({
  topic: 'jobs.posts',
  partition,
  offset: String(offset),
})

const logger = {
  info: jest.fn(),
  warn: jest.fn(),
  error: jest.fn(),
} as unknown as FastifyBaseLogger

/** A store in memory holding at most one snapshot per model. */
function memoryStore(initial?: { header: SnapshotHeader; records: unknown[] }) {
  const stored = new Map<string, { header: SnapshotHeader; records: unknown[] }>()
  if (initial) stored.set(initial.header.model, initial)
  const store: SnapshotStore = {
    async read(model) {
      const found = stored.get(model)
      if (!found) return null
      const snapshot: StoredSnapshot = {
        header: found.header,
        bytes: () => 0,
        records: (async function* () {
          yield* found.records
        })(),
      }
      return snapshot
    },
    async write(header, records) {
      const written: unknown[] = []
      for await (const record of records) written.push(record)
      stored.set(header.model, { header, records: written })
      return { bytes: written.length }
    },
    async takenAt(model) {
      const found = stored.get(model)
      return found ? new Date(found.header.takenAt) : null
    },
  }
  return { store, stored }
}

function modelWith(overrides: Partial<FollowedModelOptions> = {}) {
  const fromDatabase = jest.fn(async () => 3)
  const fromSnapshot = jest.fn(async (records: AsyncIterable<unknown>) => {
    const read: unknown[] = []
    for await (const record of records) read.push(record)
    return read.length
  })
  const model = createFollowedModel({
    model: 'jobs-feed',
    kafka: {} as Kafka,
    topics: ['jobs.posts'],
    store: null,
    loadFromDatabase: fromDatabase,
    loadFromSnapshot: fromSnapshot,
    snapshotRecords: () => ({ count: 2, records: [{ id: 'a' }, { id: 'b' }] }),
    snapshotEveryMs: 3_600_000,
    logger,
    ...overrides,
  })
  return { model, fromDatabase, fromSnapshot }
}

beforeEach(() => {
  ends.mockReset()
  within.mockReset()
})

describe('followed model', () => {
  it('without a store, loads the database and starts the group at the ends read before it', async () => {
    ends.mockResolvedValue([at(10), at(4, 1)])
    const { model, fromDatabase } = modelWith()
    await model.load()
    expect(fromDatabase).toHaveBeenCalledTimes(1)
    expect(await model.startAt()).toEqual([at(10), at(4, 1)])
    expect(model.loadedFrom()).toBe('database')
    expect(model.isReady()).toBe(true)
    model.close()
  })

  it('is ready only once the group has applied what was published during the load', async () => {
    // The ends before the load, then the ends after it: two events came meanwhile.
    ends.mockResolvedValueOnce([at(10)]).mockResolvedValue([at(12)])
    const { model } = modelWith()
    const loading = model.load()
    await model.whenLoaded()
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(model.isReady()).toBe(false)
    model.onHandled(at(11))
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(model.isReady()).toBe(false)
    model.onHandled(at(12))
    await loading
    expect(model.isReady()).toBe(true)
    model.close()
  })

  it('loads a usable snapshot and starts the group exactly where the snapshot stands', async () => {
    const header: SnapshotHeader = {
      format: 1,
      model: 'jobs-feed',
      takenAt: new Date().toISOString(),
      positions: [at(7)],
      count: 2,
    }
    const { store } = memoryStore({ header, records: [{ id: 'x' }, { id: 'y' }] })
    within.mockResolvedValue(true)
    ends.mockResolvedValue([at(7)])
    const { model, fromDatabase, fromSnapshot } = modelWith({ store })
    await model.load()
    expect(fromSnapshot).toHaveBeenCalledTimes(1)
    expect(await fromSnapshot.mock.results[0]!.value).toBe(2)
    expect(fromDatabase).not.toHaveBeenCalled()
    expect(await model.startAt()).toEqual([at(7)])
    expect(model.loadedFrom()).toBe('snapshot')
    model.close()
  })

  it('loads the database when the topics no longer hold where the snapshot stands', async () => {
    const header: SnapshotHeader = {
      format: 1,
      model: 'jobs-feed',
      takenAt: new Date().toISOString(),
      positions: [at(2)],
      count: 0,
    }
    const { store } = memoryStore({ header, records: [] })
    within.mockResolvedValue(false)
    ends.mockResolvedValue([at(30)])
    const { model, fromDatabase, fromSnapshot } = modelWith({ store })
    await model.load()
    expect(fromSnapshot).not.toHaveBeenCalled()
    expect(fromDatabase).toHaveBeenCalled()
    expect(await model.startAt()).toEqual([at(30)])
    expect(model.loadedFrom()).toBe('database')
    model.close()
  })

  it('writes a snapshot of the content with the positions it covers after a database load', async () => {
    const { store, stored } = memoryStore()
    ends.mockResolvedValue([at(5)])
    const { model } = modelWith({ store })
    await model.load()
    await model.writeSnapshot()
    const written = stored.get('jobs-feed')
    expect(written?.header).toMatchObject({ format: 1, model: 'jobs-feed', count: 2 })
    expect(written?.header.positions).toEqual([at(5)])
    expect(written?.records).toEqual([{ id: 'a' }, { id: 'b' }])
    model.close()
  })

  it('refuses to write a snapshot before it is loaded', async () => {
    const { store } = memoryStore()
    const { model } = modelWith({ store })
    await expect(model.writeSnapshot()).rejects.toThrow('jobs-feed not loaded yet')
    model.close()
  })

  it('with the broker away at load, starts at the ends once it is back and reads the database again', async () => {
    ends.mockRejectedValueOnce(new Error('broker away'))
    const { model, fromDatabase } = modelWith()
    // The load ends without positions; catching up needs the broker too.
    ends.mockRejectedValueOnce(new Error('broker away'))
    await model.load()
    expect(fromDatabase).toHaveBeenCalledTimes(1)
    ends.mockResolvedValue([at(20)])
    expect(await model.startAt()).toEqual([at(20)])
    await new Promise((resolve) => setImmediate(resolve))
    expect(fromDatabase).toHaveBeenCalledTimes(2)
    model.close()
  })
})
