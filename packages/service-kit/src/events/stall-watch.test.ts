import { EventEmitter } from 'node:events'
import type { FastifyBaseLogger } from 'fastify'
import type { Consumer } from 'kafkajs'
import { watchForStall } from './event-consumer'

/** The part of a KafkaJS consumer the watch uses: its events and its lifecycle calls. */
function fakeConsumer() {
  const emitter = new EventEmitter()
  const calls: string[] = []
  const consumer = {
    events: {
      FETCH_START: 'fetch.start',
      FETCH: 'fetch',
      START_BATCH_PROCESS: 'start.batch',
      END_BATCH_PROCESS: 'end.batch',
      GROUP_JOIN: 'group.join',
      REBALANCING: 'rebalancing',
      CRASH: 'crash',
    },
    on: (event: string, listener: () => void) => emitter.on(event, listener),
    emit: (event: string) => emitter.emit(event),
    connect: async () => void calls.push('connect'),
    subscribe: async () => void calls.push('subscribe'),
    run: async () => void calls.push('run'),
    disconnect: async () => void calls.push('disconnect'),
  }
  return { consumer, calls }
}

const logger = { warn: jest.fn() } as unknown as FastifyBaseLogger
const context = { topics: ['t'], fromBeginning: false, runConfig: {}, logger, stallMs: 200 }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the stalled-consumer watch', () => {
  it('restarts a consumer that showed no sign of life for the stall time, at its offsets', async () => {
    const { consumer, calls } = fakeConsumer()
    watchForStall(consumer as unknown as Consumer, context)
    await sleep(450)
    expect(calls.slice(0, 4)).toEqual(['disconnect', 'connect', 'subscribe', 'run'])
    await consumer.disconnect()
  })

  it('leaves a consumer alone while it keeps fetching', async () => {
    const { consumer, calls } = fakeConsumer()
    watchForStall(consumer as unknown as Consumer, context)
    for (let i = 0; i < 8; i += 1) {
      await sleep(60)
      consumer.emit('fetch')
    }
    expect(calls).toEqual([])
    await consumer.disconnect()
  })

  it('never interrupts a batch in progress, however slow its handlers', async () => {
    const { consumer, calls } = fakeConsumer()
    watchForStall(consumer as unknown as Consumer, context)
    consumer.emit('start.batch')
    await sleep(450)
    expect(calls).toEqual([])
    await consumer.disconnect()
  })

  it('stops watching once the consumer is disconnected on purpose', async () => {
    const { consumer, calls } = fakeConsumer()
    watchForStall(consumer as unknown as Consumer, context)
    await consumer.disconnect()
    await sleep(450)
    expect(calls).toEqual(['disconnect'])
  })
})
