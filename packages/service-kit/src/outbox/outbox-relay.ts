import type { FastifyBaseLogger } from 'fastify'
import type { Producer } from 'kafkajs'
import type { Db } from 'mongodb'
import { eventDefinition, type DomainEvent, type EventName } from '@marketplace/contracts/events'
import {
  outsideAnyTrace,
  startPublishSpan,
  type PublishTrace,
  type TracedEvent,
} from '../tracing/event-trace'
import type { OutboxFields } from './outbox-fields'

export interface OutboxRelayOptions {
  db: Db
  /** Collections whose documents may carry an outbox. */
  collections: string[]
  producer: Producer
  logger: FastifyBaseLogger
  /** Period of the sweep for pending documents that no write named (a crash's leftovers). */
  pollMs: number
  batchSize?: number
  /**
   * The periodic sweep leaves a document alone while all its events are younger than this
   * (default: 2 s, or the sweep period when shorter): their writer is about to publish them
   * itself, often after one more step of its own (notifications lists a notice before its
   * event goes out, so the live push finds it listed). A writer that crashed leaves them to
   * the next sweep. Every other sweep (start-up, shutdown, after a failure, an unnamed
   * write) takes every pending event.
   */
  leftoverAgeMs?: number
}

type OutboxDoc = { _id: unknown } & OutboxFields

/** A document whose write stored events, as `notify` names it. */
export interface OutboxTarget {
  collection: string
  id: unknown
  /**
   * The document's whole outbox exactly as that write left it (the events of an insert, or
   * the outbox of the document findOneAndUpdate returned). With it the relay publishes
   * without reading the document back; without it, it reads the document by `_id`.
   */
  outbox?: DomainEvent[]
}

/** What the relay knows of a named document: the newest outbox a write reported, if any. */
type NamedDocument = { outbox: DomainEvent[] | null }

/**
 * Publishes stored events to Kafka, then removes them from their documents. At least once:
 * a crash between the send and the removal publishes the event again, which consumers
 * absorb by event id. When the broker is down the events wait in the database and the relay
 * backs off; nothing is lost. A write wakes the relay at once (`notify`), so the usual delay
 * is one round trip, not a poll interval.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private wakeAgain = false
  /** Documents named by `notify` since the last pass: drained by `_id`, no query by flag. */
  private named = new Map<string, Map<unknown, NamedDocument>>()
  private sweepNext = true
  /** Whether the next sweep is the periodic one, which leaves young events to their writers. */
  private sweepLeftoversOnly = false
  private stopped = true
  private failures = 0

  constructor(private readonly options: OutboxRelayOptions) {}

  start(): void {
    this.stopped = false
    this.schedule(0)
  }

  /**
   * Call after a write that stored events; a drain already running takes it on its next pass.
   * Naming the document lets the relay fetch it by `_id` instead of looking for every pending
   * document, which on a server without an index on the flag (FerretDB) scans the collection.
   * Unnamed calls, the poll timer and every retry after a failure sweep all collections.
   */
  notify(target?: OutboxTarget): void {
    if (this.stopped) return
    if (target) {
      const documents = this.named.get(target.collection) ?? new Map<unknown, NamedDocument>()
      // Outboxes only grow until the relay clears them, so the latest write's is the whole
      // pending list. One write that did not report its outbox makes the relay read it.
      const known = documents.get(target.id)
      const outbox = known && !known.outbox ? null : (target.outbox ?? null)
      documents.set(target.id, { outbox })
      this.named.set(target.collection, documents)
    } else {
      this.sweepNext = true
      this.sweepLeftoversOnly = false
    }
    if (this.running) {
      this.wakeAgain = true
      return
    }
    this.schedule(0)
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running
  }

  /**
   * Publishes everything pending now; used by start-up, tests and graceful shutdown. With
   * `leaveYoungerThanMs`, documents whose events are all younger are left for their writers.
   */
  async drainOnce(options: { leaveYoungerThanMs?: number } = {}): Promise<number> {
    const youngSince = Date.now() - (options.leaveYoungerThanMs ?? 0)
    const isYoung = (event: DomainEvent) => Date.parse(event.occurredAt) > youngSince
    let published = 0
    for (const name of this.options.collections) {
      const collection = this.options.db.collection<OutboxDoc>(name)
      for (;;) {
        const docs = await collection
          .find({ outboxPending: true }, { projection: { outbox: 1 } })
          .limit(this.options.batchSize ?? 100)
          .toArray()
        if (docs.length === 0) break
        let cleared = 0
        for (const doc of docs) {
          const events = doc.outbox ?? []
          if (events.length > 0 && events.every(isYoung)) continue
          if (events.length > 0) await this.publish(events)
          await this.clear(name, doc._id, events)
          published += events.length
          cleared += 1
        }
        // A batch of only young documents would come back unchanged: the next sweep has them.
        if (docs.length < (this.options.batchSize ?? 100) || cleared === 0) break
      }
    }
    return published
  }

  /**
   * Publishes the events of the documents named by `notify`; the rest wait for a sweep. All of
   * a pass's events go in one batch to the broker and the documents are then cleared together:
   * under load a pass holds many documents, and one round trip each would queue them.
   */
  private async drainNamed(): Promise<void> {
    const named = this.named
    this.named = new Map()
    try {
      const pending: Array<{ collection: string; id: unknown; events: DomainEvent[] }> = []
      for (const [name, documents] of named) {
        const collection = this.options.db.collection<OutboxDoc>(name)
        for (const [id, known] of documents) {
          let events = known.outbox
          if (!events) {
            const doc = await collection.findOne({ _id: id } as never, {
              projection: { outbox: 1, outboxPending: 1 },
            })
            if (!doc?.outboxPending) continue
            events = doc.outbox ?? []
          }
          pending.push({ collection: name, id, events })
        }
      }
      // Published from the writes' own copies: if another relay cleared a document meanwhile
      // this publishes it again, which consumers absorb by event id (at least once).
      const events = pending.flatMap((document) => document.events)
      if (events.length > 0) await this.publish(events)
      await Promise.all(
        pending.map((document) => this.clear(document.collection, document.id, document.events)),
      )
    } catch (error) {
      // Not lost: the documents keep their outbox and the retry after a failure sweeps.
      this.sweepNext = true
      this.sweepLeftoversOnly = false
      throw error
    }
  }

  private async publish(events: DomainEvent[]): Promise<void> {
    const byTopic = new Map<string, DomainEvent[]>()
    for (const event of events) {
      const topic = eventDefinition(event.type as EventName).topic
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), event])
    }
    // Tracing: each event that carries its request's trace context gets a publish span in that
    // trace, and the message carries the span's context in its headers instead of the body.
    const spans: PublishTrace[] = []
    const topicMessages = [...byTopic].map(([topic, list]) => ({
      topic,
      messages: list.map((event) => {
        const span = startPublishSpan(event, topic)
        if (span) spans.push(span)
        return {
          key: event.aggregateId,
          value: JSON.stringify(withoutTraceContext(event)),
          headers: {
            'event-type': event.type,
            ...(event.requestId ? { 'x-request-id': event.requestId } : {}),
            ...span?.headers,
          },
        }
      }),
    }))
    try {
      await this.options.producer.sendBatch({ acks: -1, topicMessages })
    } catch (error) {
      for (const span of spans) span.end(error)
      throw error
    }
    for (const span of spans) span.end()
  }

  private async clear(collectionName: string, id: unknown, events: DomainEvent[]): Promise<void> {
    const collection = this.options.db.collection<OutboxDoc>(collectionName)
    // The usual case in one write: the outbox still holds exactly what was published (an
    // equality match on the whole array, so an event added meanwhile, or another replica's
    // clear followed by a new event, makes it miss).
    const { modifiedCount } = await collection.updateOne({ _id: id, outbox: events } as never, {
      $unset: { outboxPending: '', outbox: '' },
    })
    if (modifiedCount === 1) return
    // Only the published events are removed: a write that added more since we read the
    // document keeps its events and its pending flag. $pullAll by whole value (the events
    // exactly as read) because FerretDB's $pull takes no conditions, only equal values.
    await collection.updateOne({ _id: id } as never, { $pullAll: { outbox: events } } as never)
    await collection.updateOne({ _id: id, outbox: { $size: 0 } } as never, {
      $unset: { outboxPending: '', outbox: '' },
    })
  }

  private leftoverAgeMs(): number {
    return this.options.leftoverAgeMs ?? Math.min(2000, this.options.pollMs)
  }

  private schedule(delayMs: number, options: { sweep?: boolean } = {}): void {
    if (this.stopped) return
    if (this.timer) clearTimeout(this.timer)
    // Outside the trace of the write that woke the relay: each event's publish span joins its
    // own request's trace (startPublishSpan), and the next passes belong to none.
    this.timer = setTimeout(
      outsideAnyTrace(() => {
        this.timer = null
        if (options.sweep) {
          // A sweep already asked for (an unnamed write, a failure) stays a whole one.
          if (!this.sweepNext) this.sweepLeftoversOnly = true
          this.sweepNext = true
        }
        this.running = this.tick().finally(() => {
          this.running = null
        })
      }),
      delayMs,
    )
  }

  private async tick(): Promise<void> {
    try {
      do {
        this.wakeAgain = false
        if (this.sweepNext) {
          const leftoversOnly = this.sweepLeftoversOnly
          this.sweepNext = false
          this.sweepLeftoversOnly = false
          if (leftoversOnly) {
            // The periodic sweep: what writers named goes first, then the leftovers of
            // writers that crashed, leaving the events other writers are about to publish.
            await this.drainNamed()
            await this.drainOnce({ leaveYoungerThanMs: this.leftoverAgeMs() })
          } else {
            this.named = new Map()
            await this.drainOnce()
          }
        } else {
          await this.drainNamed()
        }
      } while (this.wakeAgain && !this.stopped)
      if (this.failures > 0)
        this.options.logger.info({ failures: this.failures }, 'outbox relay recovered')
      this.failures = 0
      this.schedule(this.options.pollMs, { sweep: true })
    } catch (error) {
      this.failures += 1
      this.sweepNext = true
      this.sweepLeftoversOnly = false
      // The retry's pace does not follow the sweep period: with the broker back, waiting
      // events should go out within seconds, not at the next minute's sweep.
      const backoff = Math.min(Math.min(this.options.pollMs, 250) * 2 ** this.failures, 5000)
      this.options.logger.warn(
        { err: error, backoffMs: backoff },
        'outbox relay could not publish; will retry',
      )
      this.schedule(backoff)
    }
  }
}

/** The envelope as consumers know it: the stored trace context travels in the headers. */
function withoutTraceContext(event: DomainEvent & TracedEvent): DomainEvent {
  if (event.traceparent === undefined) return event
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { traceparent, ...envelope } = event
  return envelope as DomainEvent
}
