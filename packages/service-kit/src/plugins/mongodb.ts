import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { MongoClient, type Db, type CreateIndexesOptions, type IndexSpecification } from 'mongodb'

export interface IndexDefinition {
  collection: string
  keys: IndexSpecification
  options?: CreateIndexesOptions & { name: string }
}

export interface MongoPluginOptions {
  url: string
  /** Every index the service's queries rely on; created (idempotently) before it listens. */
  indexes: IndexDefinition[]
}

declare module 'fastify' {
  interface FastifyInstance {
    mongo: { client: MongoClient; db: Db }
  }
}

export async function connectMongo(url: string): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 20 })
  await client.connect()
  // The database is the URL's path: database-per-service in one deployment.
  return { client, db: client.db() }
}

export async function ensureIndexes(db: Db, indexes: IndexDefinition[]): Promise<void> {
  for (const index of indexes) {
    await db.collection(index.collection).createIndex(index.keys, index.options)
  }
}

export const mongoPlugin = fp(
  async (app: FastifyInstance, options: MongoPluginOptions) => {
    const mongo = await connectMongo(options.url)
    await ensureIndexes(mongo.db, options.indexes)
    app.decorate('mongo', mongo)
    app.addReadinessCheck('mongodb', async () => {
      await mongo.db.command({ ping: 1 })
    })
    app.addHook('onClose', async () => {
      await mongo.client.close()
    })
  },
  { name: 'mongodb', dependencies: ['health'] },
)
