import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import fastifyCompress from '@fastify/compress'
import fp from 'fastify-plugin'

/** Below this an answer is sent as it is: compressing saves less than a packet. */
export const COMPRESSION_THRESHOLD_BYTES = 1024

// Socket.IO's long-polling answers are held open until there is something to send and the
// client measures them itself; the gateway only relays them, unchanged.
const UNCOMPRESSED_PREFIXES = ['/socket.io']

/**
 * Compresses answers of at least COMPRESSION_THRESHOLD_BYTES (brotli or gzip, whichever the
 * client prefers): the proxied API's JSON above all. What is compressed already passes
 * untouched (the web app's precompressed files carry their Content-Encoding), and
 * @fastify/compress leaves server-sent event streams alone. Must be registered before the
 * routes it covers: it attaches itself to each route as it is declared.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      if (UNCOMPRESSED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
        route.compress = false
      }
    })

    // A proxied answer or a file is a stream, and @fastify/compress applies its threshold
    // only to bodies held in memory: a small stream whose length is declared is read into
    // memory first, so the threshold covers it too. Only when the client accepts an encoding:
    // without Accept-Encoding nothing is compressed and the stream goes out as it is. A
    // callback hook, not an async one: no promise for the answers it leaves alone, nearly all.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!(payload instanceof Readable) || request.headers['accept-encoding'] === undefined) {
        done(null, payload)
        return
      }
      const length = Number(reply.getHeader('content-length'))
      if (!Number.isInteger(length) || length >= COMPRESSION_THRESHOLD_BYTES) {
        done(null, payload)
        return
      }
      readAll(payload).then(
        (body) => done(null, body),
        (error: Error) => done(error),
      )
    })

    await app.register(fastifyCompress, {
      threshold: COMPRESSION_THRESHOLD_BYTES,
      encodings: ['br', 'gzip'],
    })
  },
  { name: 'compression' },
)

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}
