import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { watchOutboxBacklog } from '../outbox/outbox-backlog'
import { OutboxRelay, type OutboxTarget } from '../outbox/outbox-relay'

export interface OutboxPluginOptions {
  /** Collections whose documents carry an outbox (tombstones included). */
  collections: string[]
  /** OUTBOX_POLL_MS: the period of the sweep for what no write named. */
  pollMs: number
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: {
      /**
       * Wakes the relay after a write that stored events; name the document so the relay
       * reads it by `_id` rather than looking through the collection, and hand over its
       * outbox as written so it need not read it at all.
       */
      notify(target?: OutboxTarget): void
      relay: OutboxRelay
    }
  }
}

/**
 * The outbox relay, built before the repositories so they are given its notifier at once.
 * It publishes only once the events plugin has connected the producer and started it; a
 * write before that is not lost: the relay's first pass sweeps every outbox collection.
 */
export const outboxPlugin = fp(
  async (app: FastifyInstance, options: OutboxPluginOptions) => {
    const relay = new OutboxRelay({
      db: app.mongo.db,
      collections: options.collections,
      producer: app.kafka.producer,
      logger: app.log.child({ component: 'outbox-relay' }),
      pollMs: options.pollMs,
    })
    app.decorate('outbox', { relay, notify: (target?: OutboxTarget) => relay.notify(target) })
    watchOutboxBacklog({
      db: app.mongo.db,
      collections: options.collections,
      metrics: app.metrics,
    })
  },
  { name: 'outbox', dependencies: ['mongodb', 'kafka', 'metrics'] },
)
