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
const timersNow = () =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length
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
    // The admin client's own timers end as it disconnects: counted once they have, so a timer
    // that ends meanwhile cannot be taken for one the producer left (a CI run counted 3, then 2).
    await sleep(300)
    const before = timersNow()
    producer = kafka.producer({ allowAutoTopicCreation: false })
    await producer.connect()
    await producer.send({ topic: 'idle-test', messages: [{ value: 'one' }] })
    // Long enough for the stock library's loop and interval to be running (1 ms, 100 ms).
    await sleep(300)
    // The stock library would add two per connection; none may be added.
    expect(timersNow()).toBeLessThanOrEqual(before)
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
