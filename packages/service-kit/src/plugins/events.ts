import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Consumer, Producer } from 'kafkajs'
import { Gauge } from 'prom-client'
import { Events, allTopics } from '@marketplace/contracts/events'
import { assertReadsGranted } from '../events/kafka-acls'
import { watchBroker } from '../events/broker-watch'
import { watchConsumerLag } from '../events/consumer-lag'
import { instanceIdentity, perInstanceGroupId } from '../events/instance-identity'
import { sweepProcessedEvents } from '../events/processed-events'
import { DEAD_LETTER_TOPIC, ensureTopics } from '../events/kafka-client'
import {
  startEventConsumer,
  type EventConsumerOptions,
  type EventHandlers,
} from '../events/event-consumer'

/** How often expired processed-event records are swept. */
const LEDGER_SWEEP_MS = 60 * 60 * 1000

export interface ConsumerDefinition {
  groupId: string
  handlers: EventHandlers
  /** Default true: remember processed event ids in the service's database. */
  useLedger?: boolean
  fromBeginning?: boolean
  /** A read model's exact start and progress (event-consumer.ts; read-models' snapshot). */
  startAt?: EventConsumerOptions['startAt']
  onHandled?: EventConsumerOptions['onHandled']
  /**
   * One group per instance (`<groupId>.<instance id>`), so every instance reads every event:
   * the live push, an in-memory read model. Default false: one group the instances share.
   */
  perInstance?: boolean
  /**
   * A group of this process alone that no later process may reuse (a read model's, which
   * starts exactly where its snapshot or scan left off): deleted from the broker when the
   * service closes, so restarts do not leave a group behind each time.
   */
  deleteOnClose?: boolean
}

export interface EventsPluginOptions {
  /** The service's consumer groups (its events/subscriptions.ts, read models' own groups). */
  consumers: ConsumerDefinition[]
  /** KAFKA_GROUP_PREFIX: isolates test runs and side-by-side stacks on one broker. */
  groupPrefix?: string
  /** KAFKA_NEW_GROUPS_SINCE: new groups that read from the beginning start at this instant. */
  newGroupsSince?: number
  /** KAFKA_FETCH_WAIT_MS: each consumer's long-poll wait (event-consumer.ts). */
  fetchWaitMs?: number
  /** Names the per-instance groups (INSTANCE_ID, events/instance-identity.ts). */
  instanceId?: string
  /**
   * The service's Kafka principal (its SERVICE_NAME): every topic its consumers read must be
   * granted to it in kafka-acls.ts' TOPICS_READ, or the service refuses to start.
   */
  principal?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    events: {
      /** Resolves once topics exist, the relay runs and every consumer has joined its group. */
      ready: Promise<void>
      /** The service's producer (app.kafka's), for whoever must publish as the service. */
      producer: Producer
      /** This instance's name among its service's (INSTANCE_ID or one made at start). */
      instanceId: string
    }
  }
}

/**
 * The service on the broker: topics created at start, the producer connected, the outbox
 * relay started (when the service has one) and every consumer group joined. The broker
 * being down, at start or later, does not stop the service: HTTP keeps serving (writes wait
 * in the outbox), /healthz and /metrics report it, and the connection is retried.
 */
export const eventsPlugin = fp(
  async (app: FastifyInstance, options: EventsPluginOptions) => {
    const { client: kafka, producer } = app.kafka
    if (options.principal) {
      const consumed = new Set(options.consumers.flatMap((c) => Object.keys(c.handlers)))
      const topics = Object.values(Events)
        .filter((event) => consumed.has(event.type))
        .map((event) => event.topic)
      assertReadsGranted(options.principal, topics)
    }
    const instanceId = instanceIdentity(options.instanceId)
    const groupIdOf = (definition: ConsumerDefinition) =>
      (options.groupPrefix ?? '') +
      (definition.perInstance
        ? perInstanceGroupId(definition.groupId, instanceId)
        : definition.groupId)
    // A service without a database (media) has no outbox and keeps no ledger.
    const relay = app.hasDecorator('outbox') ? app.outbox.relay : null
    const consumers: Consumer[] = []
    const started = new Set<ConsumerDefinition>()
    let consumersJoined = options.consumers.length === 0
    // Set once a start-up attempt failed: the broker is away, and waiting for it would keep
    // an instance that can serve HTTP out of service for as long as the outage lasts.
    let brokerAwayAtStart = false
    let closing = false
    const database = () => {
      if (!app.hasDecorator('mongo')) {
        throw new Error('a consumer with a ledger needs the mongodb plugin')
      }
      return app.mongo.db
    }

    async function connect(): Promise<void> {
      for (let attempt = 1; !closing; attempt += 1) {
        try {
          await ensureTopics(kafka, [...allTopics, DEAD_LETTER_TOPIC])
          await producer.connect()
          relay?.start()
          // All groups join at once (each join waits out the broker's initial rebalance
          // delay, so one after another took seconds per group). A retry starts only those
          // not running yet, never one twice.
          const pending = options.consumers.filter((definition) => !started.has(definition))
          const results = await Promise.allSettled(
            pending.map(async (definition) => {
              const consumer = await startEventConsumer({
                kafka,
                producer,
                groupId: groupIdOf(definition),
                handlers: definition.handlers,
                logger: app.log,
                db: definition.useLedger === false ? undefined : database(),
                fromBeginning: definition.fromBeginning,
                startAt: definition.startAt,
                onHandled: definition.onHandled,
                since: options.newGroupsSince,
                fetchWaitMs: options.fetchWaitMs,
                metrics: app.metrics,
              })
              started.add(definition)
              // Closed while it was joining (past the wait below): it must not outlive the app.
              if (closing) await consumer.disconnect().catch(() => undefined)
              else consumers.push(consumer)
            }),
          )
          const failed = results.find((result) => result.status === 'rejected')
          if (failed) throw (failed as PromiseRejectedResult).reason
          consumersJoined = true
          return
        } catch (error) {
          brokerAwayAtStart = true
          const delay = Math.min(1000 * attempt, 10_000)
          app.log.warn({ err: error, attempt, retryInMs: delay }, 'kafka not reachable yet')
          await new Promise((resolve) => setTimeout(resolve, delay))
        }
      }
    }

    const ready = connect()
    // Unhandled rejection guard: connect() never rejects, but tests may never await it.
    ready.catch(() => undefined)

    app.decorate('events', { ready, producer, instanceId })

    // At start, ready once every consumer group has joined: before that, an event (a live
    // push, a revocation) published now could be missed by a group that starts at the end.
    // Only at start, and only while the broker answers: afterwards Kafka's state is no
    // reason to leave the Service, it shows on /healthz and /metrics.
    app.addReadinessCheck('consumer-groups', async () => {
      if (!consumersJoined && !brokerAwayAtStart) throw new Error('consumer groups still joining')
    })
    const broker = watchBroker({ kafka, metrics: app.metrics, logger: app.log })
    const lag = watchConsumerLag({
      kafka,
      metrics: app.metrics,
      logger: app.log,
      groups: () =>
        [...started].map((definition) => ({
          groupId: groupIdOf(definition),
          topics: [
            ...new Set(
              Object.keys(definition.handlers).map(
                (type) => Object.values(Events).find((event) => event.type === type)!.topic,
              ),
            ),
          ],
        })),
    })

    // The ledger's expiry where the server runs no TTL index (FerretDB); harmless elsewhere.
    const keepsLedger = options.consumers.some((definition) => definition.useLedger !== false)
    const ledgerSweep = keepsLedger
      ? setInterval(() => {
          sweepProcessedEvents(database())
            .then((removed) => {
              if (removed > 0) app.log.info({ removed }, 'expired processed-event records removed')
            })
            .catch((error: unknown) =>
              app.log.warn({ err: error }, 'processed-events sweep failed; next hour'),
            )
        }, LEDGER_SWEEP_MS).unref()
      : null
    new Gauge({
      name: 'kafka_consumer_groups_joined',
      help: '1 once every consumer group of the service has joined, 0 before',
      registers: [app.metrics],
      collect() {
        this.set(consumersJoined ? 1 : 0)
      },
    })
    app.addHealthDetail('kafka', () => ({
      broker: broker.state(),
      checkedAt: broker.checkedAt(),
      consumerGroups: consumersJoined ? 'joined' : 'joining',
    }))

    /** After their consumers left: a group with a member still in it is not deleted. */
    async function deleteGroupsOfThisProcess(): Promise<void> {
      const groupIds = options.consumers
        .filter((definition) => definition.deleteOnClose && started.has(definition))
        .map(groupIdOf)
      if (groupIds.length === 0) return
      const admin = kafka.admin()
      try {
        await admin.connect()
        await admin.deleteGroups(groupIds)
      } catch (error) {
        // The broker away or the group busy: it stays, and the broker expires its offsets.
        app.log.warn({ err: error, groupIds }, "could not delete this process's consumer groups")
      } finally {
        await admin.disconnect().catch(() => undefined)
      }
    }

    // Graceful order: stop taking events, finish the relay's current pass, then disconnect.
    // Registered after the service's own parts, so this runs before theirs close (onClose
    // hooks run last-registered first): a handler never finds its mail transport gone.
    app.addHook('onClose', async () => {
      closing = true
      broker.stop()
      await lag.stop()
      if (ledgerSweep) clearInterval(ledgerSweep)
      // A consumer still joining its group cannot be interrupted: let the start-up finish
      // (bounded, for a broker that does not answer) so it is in `consumers` and disconnected
      // below, instead of joining after the process believes it has shut down. A join takes
      // seconds, more on a loaded broker (a CI run's, with hundreds of groups): 30 s, and one
      // that still ends later disconnects itself (above). runService() exits after 10 s anyway.
      await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 30_000).unref())])
      await Promise.all(consumers.map((consumer) => consumer.disconnect()))
      await deleteGroupsOfThisProcess()
      await relay?.stop()
      await producer.disconnect()
    })
  },
  { name: 'events', dependencies: ['health', 'metrics', 'kafka'] },
)
