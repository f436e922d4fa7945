import type { Producer } from 'kafkajs'
import type { DomainEvent } from '@marketplace/contracts/events'

/**
 * The events one app's own producer sends (its outbox relay), from now until `stop`.
 *
 * Why not a probe on the topic: the test files of a package run side by side, and each file's
 * app reads the same topics, so an event published by a test (a sign-up, a report decision)
 * is handled by every app alive at that moment, each in its own database, and each announces
 * its own answer to the shared topic. "This service announced X once" is a statement about
 * this app's producer.
 */
export function recordPublishedEvents(app: { events: { producer: Producer } }) {
  const producer = app.events.producer
  const original = producer.sendBatch.bind(producer)
  const sent: DomainEvent[] = []
  producer.sendBatch = async (batch) => {
    const result = await original(batch)
    for (const topic of batch.topicMessages ?? []) {
      for (const message of topic.messages) {
        if (message.value) sent.push(JSON.parse(String(message.value)) as DomainEvent)
      }
    }
    return result
  }
  return {
    /** What was sent so far (acknowledged by the broker), oldest first. */
    events: (): readonly DomainEvent[] => sent,
    stop() {
      producer.sendBatch = original
    },
  }
}
