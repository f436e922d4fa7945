import type { FastifyInstance } from 'fastify'

/** A model the service holds in memory and serves from (a feed index), loaded at start. */
export interface ReadModel {
  /** Its check on /readyz, e.g. "feed". */
  name: string
  /** What logs and /readyz call it, e.g. "feed index". */
  label: string
  /** Fills it from the database; the model's own consumer keeps it current afterwards. */
  load(): Promise<void>
  isLoaded(): boolean
}

/**
 * Loads the service's read models before it serves, and makes /readyz wait for each.
 *
 * A model's own consumer group starts at the topics' ends, so the model is loaded once the
 * groups have joined: a change another replica made between the load and the join would
 * otherwise be missed. Usually Kafka is up and the groups join within seconds: one load is
 * then enough. When it is not, the service still starts, and loads again once they have.
 * Not a plugin: the wait may outlast Fastify's plugin time limit (10 s) on a busy broker.
 */
export async function loadReadModels(
  app: FastifyInstance,
  models: readonly ReadModel[],
  joinWaitMs = 15_000,
): Promise<void> {
  if (models.length === 0) return
  const joinedInTime = await Promise.race([
    app.events.ready.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), joinWaitMs).unref()),
  ])
  for (const model of models) {
    await model.load()
    if (!joinedInTime) {
      app.events.ready
        .then(() => model.load())
        .catch((error: unknown) => app.log.error({ err: error }, `${model.label} reload failed`))
    }
    app.addReadinessCheck(model.name, async () => {
      if (!model.isLoaded()) throw new Error(`${model.label} loading`)
    })
  }
}
