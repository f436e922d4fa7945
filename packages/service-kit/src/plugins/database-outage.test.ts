import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net'
import { createServiceApp } from '../create-app'
import { infraEnv } from '../testing/infra-env'
import { waitFor } from '../testing/wait-for'
import { connectMongo } from './mongodb'

// The real FerretDB of infra/local behind a TCP relay the test can cut and restore: a
// database outage for this one client, the shared server untouched.

/** A relay to the real server on a fixed port; `cut` closes it and every open connection. */
function relayTo(target: URL) {
  let server: Server | null = null
  const sockets = new Set<Socket>()
  return {
    async open(port = 0): Promise<number> {
      server = createServer((socket) => {
        const upstream = connect(Number(target.port), target.hostname)
        sockets.add(socket).add(upstream)
        socket.pipe(upstream).pipe(socket)
        for (const end of [socket, upstream]) {
          end.on('error', () => undefined)
          end.on('close', () => {
            socket.destroy()
            upstream.destroy()
            sockets.delete(end)
          })
        }
      })
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve))
      return (server!.address() as AddressInfo).port
    },
    async cut(): Promise<void> {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server?.close(resolve))
    },
  }
}

describe('a database outage', () => {
  it('answers 503 with Retry-After, stays alive, and serves again once the database is back', async () => {
    const relay = relayTo(new URL(infraEnv().mongoUrlBase))
    const port = await relay.open()
    const mongo = await connectMongo(
      `mongodb://127.0.0.1:${port}/service_kit_outage?${infraEnv().mongoUrlOptions}`,
    )
    const app = await createServiceApp({ serviceName: 'outage-test', logLevel: 'silent' })
    app.addReadinessCheck('mongodb', async () => {
      await mongo.db.command({ ping: 1 })
    })
    app.post('/things', async (_request, reply) => {
      const { insertedId } = await mongo.db.collection('things').insertOne({ at: new Date() })
      return reply.code(201).send({ id: String(insertedId) })
    })
    await app.ready()
    try {
      expect((await app.inject({ method: 'POST', url: '/things' })).statusCode).toBe(201)

      await relay.cut()
      // The first meets its pooled connection closed; the next must look for the server.
      for (const attempt of ['first', 'second']) {
        const startedAt = Date.now()
        const during = await app.inject({ method: 'POST', url: '/things' })
        // A figure, not an assertion (docs/reliability.md: no test asserts a wall-clock time).
        console.log(
          `database away, ${attempt} write: ${during.statusCode} after ${Date.now() - startedAt} ms`,
        )
        expect(during.statusCode).toBe(503)
        expect(during.headers['retry-after']).toBe('5')
        expect(during.json()).toEqual({
          message: 'The service is briefly unavailable. Please try again in a few seconds.',
          code: 'SERVICE_UNAVAILABLE',
        })
      }
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200)
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(503)

      await relay.open(port)
      await waitFor(
        async () => (await app.inject({ method: 'POST', url: '/things' })).statusCode === 201,
        {
          timeoutMs: 60_000,
          intervalMs: 250,
          what: 'a write to succeed once the database is back',
        },
      )
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200)
    } finally {
      await app.close()
      await mongo.db.dropDatabase().catch(() => undefined)
      await mongo.client.close()
      await relay.cut()
    }
  })
})
