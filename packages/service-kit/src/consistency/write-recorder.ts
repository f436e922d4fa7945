import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyInstance } from 'fastify'
import {
  READ_AFTER_EVERYONE_HEADER,
  READ_AFTER_HEADER,
  formatPosition,
  type WrittenPosition,
} from './written-positions'

/** The positions one request wrote, gathered while it runs. */
interface WrittenByRequest {
  forCaller: Set<string>
  forEveryone: Set<string>
}

/**
 * One store per request that may write. A repository deep inside a use case records what it
 * changed without the request being passed down to it: the store follows the request's
 * asynchronous work (Node's AsyncLocalStorage, as @fastify/request-context uses it).
 */
const written = new AsyncLocalStorage<WrittenByRequest>()

/** Methods that never write: no store, no cost on the reads the feeds serve in bulk. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Records that the request under way changed an item (a no-op outside a request: an event
 * handler's write has no caller waiting for it). `everyone`: the change took something away
 * from what others may see, so every reader, not only the writer, should read after it.
 */
export function recordWrittenPosition(position: WrittenPosition, everyone = false): void {
  const store = written.getStore()
  if (!store) return
  const text = formatPosition(position)
  store.forCaller.add(text)
  if (everyone) store.forEveryone.add(text)
}

/**
 * Opens the store for every request that may write, and sends what it gathered in the
 * answer's headers (written-positions.ts says who reads them).
 */
export function writeRecorder(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (READS.has(request.method)) return done()
    written.run({ forCaller: new Set(), forEveryone: new Set() }, done)
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    if (READS.has(request.method)) return done(null, payload)
    const store = written.getStore()
    if (store && store.forCaller.size > 0) {
      void reply.header(READ_AFTER_HEADER, [...store.forCaller].join(', '))
      if (store.forEveryone.size > 0)
        void reply.header(READ_AFTER_EVERYONE_HEADER, [...store.forEveryone].join(', '))
    }
    done(null, payload)
  })
}
