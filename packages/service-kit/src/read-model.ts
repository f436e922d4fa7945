import type { FastifyInstance } from 'fastify'
import { Gauge, type Registry } from 'prom-client'

/** A model the service holds in memory and serves from (a feed index), loaded at start. */
export interface ReadModel {
  /** Its check on /readyz, e.g. "feed". */
  name: string
  /** What logs and /readyz call it, e.g. "feed index". */
  label: string
  /** Fills it from the database; the model's own consumer keeps it current afterwards. */
  load(): Promise<void>
  isLoaded(): boolean
  /**
   * The load itself tells the model's group where to start (read-models' snapshot: a
   * snapshot's positions, or the topics' ends read before a database scan), so it runs at
   * once, without waiting for the groups to join, and is never run again.
   */
  startsItsGroup?: boolean
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
  models = models.map((model) => measured(app, model))
  for (const model of models.filter((candidate) => candidate.startsItsGroup)) {
    app.addReadinessCheck(model.name, async () => {
      if (!model.isLoaded()) throw new Error(`${model.label} loading`)
    })
    // Not awaited: its group joins only once the load knows where it starts.
    void loadUntilDone(app, model)
  }
  models = models.filter((candidate) => !candidate.startsItsGroup)
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

/** A load that failed (the database away at start) is tried again until the app closes. */
async function loadUntilDone(app: FastifyInstance, model: ReadModel): Promise<void> {
  let closing = false
  app.addHook('onClose', async () => {
    closing = true
  })
  for (let attempt = 1; !closing; attempt += 1) {
    try {
      await model.load()
      return
    } catch (error) {
      const retryInMs = Math.min(1000 * attempt, 10_000)
      app.log.error({ err: error, retryInMs }, `${model.label} load failed`)
      await new Promise((resolve) => setTimeout(resolve, retryInMs).unref())
    }
  }
}

/**
 * The model with its loads measured for operators: `read_model_load_seconds{model}`, how
 * long its last complete load took, and `read_model_loaded{model}`, 1 once it is loaded (what
 * /readyz waits for), read when /metrics is scraped.
 */
function measured(app: FastifyInstance, model: ReadModel): ReadModel {
  const gauges = readModelGauges(app.metrics)
  gauges.loadedChecks.set(model.name, () => model.isLoaded())
  return {
    ...model,
    load: async () => {
      const started = process.hrtime.bigint()
      await model.load()
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      gauges.loadSeconds.set({ model: model.name }, seconds)
    },
    isLoaded: () => model.isLoaded(),
  }
}

interface ReadModelGauges {
  loadSeconds: Gauge<'model'>
  /** Whether each measured model of the app is loaded, asked at scrape time. */
  loadedChecks: Map<string, () => boolean>
}

/** One pair of gauges per app's registry (tests run several apps in one process). */
const gaugesOf = new WeakMap<Registry, ReadModelGauges>()

function readModelGauges(registry: Registry): ReadModelGauges {
  let gauges = gaugesOf.get(registry)
  if (gauges) return gauges
  const loadedChecks = new Map<string, () => boolean>()
  gauges = {
    loadedChecks,
    loadSeconds: new Gauge({
      name: 'read_model_load_seconds',
      help: 'How long the last complete load of the read model took',
      labelNames: ['model'],
      registers: [registry],
    }),
  }
  new Gauge({
    name: 'read_model_loaded',
    help: '1 once the read model is loaded, 0 before',
    labelNames: ['model'],
    registers: [registry],
    collect() {
      for (const [model, isLoaded] of loadedChecks) this.set({ model }, isLoaded() ? 1 : 0)
    },
  })
  gaugesOf.set(registry, gauges)
  return gauges
}
