import { createHook } from 'node:async_hooks'
import { createServer, type Server, type Socket } from 'node:net'
import { Kafka, logLevel, type Producer } from 'kafkajs'
import pino from 'pino'
import { infraEnv } from '../testing/infra-env'
import { createKafka, ensureTopics } from './kafka-client'

// What an idle Kafka connection costs: our patch of kafkajs (patches/kafkajs@2.2.4.patch)
// removes the two timers the stock library keeps on every connection whether anything is
// asked or not (a 1 ms pending-request loop and a 100 ms request-timeout check), and gives
// each request in flight a timeout of its own instead. Real Kafka from infra/local.
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })
/**
 * The timers kafkajs's own code has created and not yet cleared or run, from now on. Counting
 * every timer of the process instead (what this test did first) met the timers of other
 * suites run earlier in the same worker (a database client's health checks re-arming) and
 * moved by one either way between runs.
 */
function kafkajsTimers() {
  const alive = new Set<number>()
  let created = 0
  const hook = createHook({
    init(asyncId, type) {
      if (type === 'Timeout' && (new Error().stack ?? '').includes('kafkajs')) {
        alive.add(asyncId)
        created += 1
      }
    },
    destroy(asyncId) {
      alive.delete(asyncId)
    },
  }).enable()
  return { count: () => alive.size, created: () => created, stop: () => hook.disable() }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('an idle kafkajs connection', () => {
  let producer: Producer | undefined

  afterEach(async () => {
    await producer?.disconnect()
    producer = undefined
  })

  it('keeps no timer running once its requests are answered', async () => {
    const kafka = createKafka({ brokers: infraEnv().kafkaBrokers, clientId: 'idle-test', logger })
    await ensureTopics(kafka, ['idle-test'])
    const timers = kafkajsTimers()
    try {
      producer = kafka.producer({ allowAutoTopicCreation: false })
      await producer.connect()
      await producer.send({ topic: 'idle-test', messages: [{ value: 'one' }] })
      // Long enough for the stock library's loop and interval to be running (1 ms, 100 ms).
      await sleep(300)
      // Each request had a timeout of its own while in flight (so kafkajs's timers are seen
      // here); the stock library keeps two more per connection; none may be left.
      expect(timers.created()).toBeGreaterThan(0)
      expect(timers.count()).toBe(0)
    } finally {
      timers.stop()
    }
  })

  describe('against a broker that accepts and never answers', () => {
    let server: Server
    const sockets: Socket[] = []
    let port = 0

    beforeAll(async () => {
      server = createServer((socket) => void sockets.push(socket))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      port = (server.address() as { port: number }).port
    })

    afterAll(async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    })

    it('still gives up on a request after its timeout', async () => {
      const kafka = new Kafka({
        clientId: 'silent-broker-test',
        brokers: [`127.0.0.1:${port}`],
        requestTimeout: 500,
        connectionTimeout: 1000,
        retry: { retries: 0 },
        logLevel: logLevel.NOTHING,
      })
      const admin = kafka.admin()
      const started = Date.now()
      await expect(admin.connect()).rejects.toThrow(/timed out/i)
      const waited = Date.now() - started
      expect(waited).toBeGreaterThanOrEqual(400)
      expect(waited).toBeLessThan(5000)
      await admin.disconnect()
    })
  })
})
