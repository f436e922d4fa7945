import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Partitioners, type Kafka, type Producer } from 'kafkajs'
import type { KafkaAuthConfig } from '../config'
import { createKafka } from '../events/kafka-client'

export interface KafkaPluginOptions {
  brokers: string
  clientId: string
  auth?: Partial<KafkaAuthConfig>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's broker client and its one producer; connected by the events plugin. */
    kafka: { client: Kafka; producer: Producer }
  }
}

/**
 * The broker client and the producer every part of the service shares (the outbox relay,
 * the consumers' dead letters). Creating them talks to no broker, so they exist before the
 * repositories that will publish through them; the events plugin connects them.
 */
export const kafkaPlugin = fp(
  async (app: FastifyInstance, options: KafkaPluginOptions) => {
    const client = createKafka({
      brokers: options.brokers,
      clientId: options.clientId,
      logger: app.log,
      auth: options.auth,
    })
    const producer = client.producer({
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    })
    app.decorate('kafka', { client, producer })
  },
  { name: 'kafka', dependencies: ['health'] },
)
