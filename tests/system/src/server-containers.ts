import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { randomInt } from 'node:crypto'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { Kafka, logLevel } from 'kafkajs'
import { MongoClient } from 'mongodb'
import {
  GenericContainer,
  getContainerRuntimeClient,
  Wait,
  type StartedTestContainer,
} from 'testcontainers'
import { waitFor } from '@marketplace/service-kit/testing'

// Servers of a test's own, as containers (testcontainers) on the images infra/images/build.sh
// builds on this machine from package registries: no image registry is reachable here, so
// nothing is ever pulled. The faults are what a container gives: `docker stop` (the server goes
// away and refuses connections), then `docker start` with the same data and port; and
// `docker pause` (the cgroup freezer stops every process of the container: connections stay
// open and nothing answers, as with a server stuck in a long pause or an overloaded host),
// then `docker unpause`; and `docker network disconnect` (the container leaves its network:
// packets to it go nowhere, as in a network partition), then `docker network connect`.
//
// testcontainers' reaper (Ryuk) is an image from Docker Hub, so it is turned off; each test
// file removes its own containers in afterAll, and a container left by a run that was killed
// is removed by the next run (the label below names the process that made it).

const repoRoot = join(__dirname, '..', '..', '..')
const OWNER_LABEL = 'org.marketplace.system-test-pid'

/** Containers whose test process is gone (killed before its afterAll): removed once per file. */
let leftoversRemoved = false
async function removeLeftovers(): Promise<void> {
  if (leftoversRemoved) return
  leftoversRemoved = true
  const client = await getContainerRuntimeClient()
  const mine = await client.container.dockerode.listContainers({
    all: true,
    filters: { label: [OWNER_LABEL] },
  })
  for (const info of mine) {
    const pid = Number(info.Labels[OWNER_LABEL])
    let alive = true
    try {
      process.kill(pid, 0)
    } catch {
      alive = false
    }
    if (!alive) {
      await client.container.dockerode
        .getContainer(info.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined)
    }
  }
}

/**
 * Makes sure `marketplace/<name>:local` is the image of the current sources: build.sh is
 * cached by a hash of the image's inputs, so this takes seconds when nothing changed (the
 * first build of an image takes minutes). It also starts the Docker engine when none runs.
 */
const imagesChecked = new Set<string>()
function localImage(name: 'kafka' | 'ferretdb'): string {
  if (!imagesChecked.has(name)) {
    execFileSync('bash', [join(repoRoot, 'infra/images/build.sh'), name], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    imagesChecked.add(name)
  }
  return `marketplace/${name}:local`
}

/**
 * A host port for a server that will be stopped and started again: below Linux's ephemeral
 * range (32768 and up), so no client connection's own port can take it while the server is
 * away, and free now. The container publishes it on 127.0.0.1 at the same number, and keeps it
 * across `docker stop` and `docker start` (a port Docker chose would change at each start).
 */
async function stablePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = randomInt(20_000, 32_000)
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error('no free port between 20000 and 32000')
}

export interface ServerContainer {
  /** The container, for anything else testcontainers offers (logs, exec). */
  container: StartedTestContainer
  /** `docker stop`: the server shuts down; its port refuses connections until start(). */
  stop(): Promise<void>
  /** `docker start` of the stopped container (same data, same port), then waits until it serves. */
  start(): Promise<void>
  /** `docker pause`: the server freezes; its connections stay open and get no answer. */
  pause(): Promise<void>
  /** `docker unpause`, then waits until it serves. */
  unpause(): Promise<void>
  /** `docker network disconnect` from every network it is on: a partition, the server running. */
  disconnect(): Promise<void>
  /** `docker network connect` to those networks again (its published port with them), then waits until it serves. */
  reconnect(): Promise<void>
  /** Removes the container and its data. */
  remove(): Promise<void>
}

async function serverContainer(
  started: StartedTestContainer,
  serves: () => Promise<void>,
  what: string,
): Promise<ServerContainer> {
  const client = await getContainerRuntimeClient()
  const docker = client.container.dockerode.getContainer(started.getId())
  const untilServing = () =>
    waitFor(
      () =>
        serves().then(
          () => true,
          () => false,
        ),
      { timeoutMs: 120_000, intervalMs: 500, what },
    )
  await untilServing()
  const networks = Object.keys(
    ((await docker.inspect()) as { NetworkSettings: { Networks: Record<string, unknown> } })
      .NetworkSettings.Networks,
  )
  return {
    container: started,
    stop: async () => {
      await docker.stop({ t: 10 })
    },
    start: async () => {
      await docker.start()
      await untilServing()
    },
    pause: async () => {
      await docker.pause()
    },
    unpause: async () => {
      await docker.unpause()
      await untilServing()
    },
    disconnect: async () => {
      for (const name of networks)
        await client.container.dockerode
          .getNetwork(name)
          .disconnect({ Container: started.getId(), Force: true })
    },
    reconnect: async () => {
      for (const name of networks)
        await client.container.dockerode.getNetwork(name).connect({ Container: started.getId() })
      await untilServing()
    },
    remove: async () => {
      await docker.remove({ force: true, v: true }).catch(() => undefined)
    },
  }
}

function containerOf(image: string): GenericContainer {
  // Read when testcontainers first talks to Docker: set before any container starts.
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true'
  return new GenericContainer(image)
    .withPullPolicy({ shouldPull: () => false })
    .withLabels({ [OWNER_LABEL]: String(process.pid) })
}

/** SCRAM users of a broker that authenticates and authorizes: name -> password. */
export interface ScramUsers {
  /** The superuser: the broker's own login and the one that may write ACLs. */
  admin: string
  [user: string]: string
}

/**
 * A Kafka broker of its own (KRaft, one node), reached at `brokers` from this machine.
 * Without `scram`: PLAINTEXT, topics made on first use, as the shared local broker. With it:
 * as production runs it (tests/system/containers/kafka-server-scram.properties): SASL/SCRAM-SHA-512 for
 * these users, ACLs enforced, nothing allowed without one, topics made only by the admin.
 */
export async function startKafka(
  options: { scram?: ScramUsers } = {},
): Promise<ServerContainer & { brokers: string }> {
  const image = localImage('kafka')
  await removeLeftovers()
  const port = await stablePort()
  const brokers = `127.0.0.1:${port}`
  const { scram } = options
  // The broker advertises the address clients on this machine use; inside the container it
  // listens on the same port number, which Docker publishes on 127.0.0.1.
  const properties = scram ? scramProperties(port, scram.admin) : plainProperties(port)
  // The users exist from the first start: the storage is formatted with their passwords.
  const users = Object.entries(scram ?? {}).map(
    ([name, password]) => `--add-scram 'SCRAM-SHA-512=[name=${name},password=${password}]'`,
  )
  const started = await containerOf(image)
    .withCopyContentToContainer([
      { content: `${properties}\n`, target: '/opt/marketplace/server.properties', mode: 0o644 },
    ])
    .withEnvironment({ KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m' })
    // Formats the storage on the first start only (--ignore-formatted): a `docker start` after
    // a stop keeps every topic and offset, as a restarted broker does.
    .withCommand([
      'bash',
      '-c',
      'kafka-storage.sh format -t MkU3OEVBNTcwNTJENDM2Qk -c /opt/marketplace/server.properties --ignore-formatted ' +
        users.join(' ') +
        ' && exec kafka-server-start.sh /opt/marketplace/server.properties',
    ])
    .withExposedPorts({ container: port, host: port })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .withStartupTimeout(120_000)
    .start()
  const server = await serverContainer(
    started,
    async () => {
      const admin = new Kafka({
        brokers: [brokers],
        ...(scram && {
          sasl: { mechanism: 'scram-sha-512', username: 'admin', password: scram.admin },
        }),
        logLevel: logLevel.NOTHING,
        connectionTimeout: 2000,
        retry: { retries: 0 },
      }).admin()
      try {
        await admin.connect()
        await admin.listTopics()
      } finally {
        await admin.disconnect().catch(() => undefined)
      }
    },
    `the Kafka container on ${brokers} to answer`,
  )
  return { ...server, brokers }
}

/** The broker on plain TCP (tests/system/containers/kafka-server.properties), on `port`. */
function plainProperties(port: number): string {
  const template = readFileSync(join(repoRoot, 'tests/system/containers/kafka-server.properties'), 'utf8')
  return template.replaceAll('__PORT__', String(port))
}

/**
 * The SCRAM broker's settings (the template's placeholders filled), for a container:
 * it listens on every interface of its own (Docker publishes the port on 127.0.0.1), its
 * controller stays inside, its data in the image's data folder.
 */
function scramProperties(port: number, adminPassword: string): string {
  const template = readFileSync(join(repoRoot, 'tests/system/containers/kafka-server-scram.properties'), 'utf8')
  return template
    .replace(
      /^listeners=.*$/m,
      `listeners=SASL_PLAINTEXT://:${port},CONTROLLER://localhost:__CONTROLLER_PORT__`,
    )
    .replaceAll('127.0.0.1:__CONTROLLER_PORT__', 'localhost:9093')
    .replaceAll('__CONTROLLER_PORT__', '9093')
    .replaceAll('__PORT__', String(port))
    .replaceAll('__DATA__/kafka', '/var/lib/kafka/data')
    .replaceAll('__ADMIN_PASSWORD__', adminPassword)
}

/**
 * A MongoDB-protocol server of its own: FerretDB, as the shared local servers and compose run
 * it here. `url(name)` is a database on it, with the options a single server needs; `urlBase`
 * the server's address without a database.
 */
export async function startDatabase(): Promise<
  ServerContainer & { url(name: string): string; urlBase: string }
> {
  const image = localImage('ferretdb')
  await removeLeftovers()
  const port = await stablePort()
  const urlBase = `mongodb://127.0.0.1:${port}`
  const url = (name: string) => `${urlBase}/${name}?directConnection=true&retryWrites=false`
  const started = await containerOf(image)
    .withExposedPorts({ container: 27017, host: port })
    .withWaitStrategy(Wait.forListeningPorts())
    .withStartupTimeout(60_000)
    .start()
  const server = await serverContainer(
    started,
    async () => {
      const client = new MongoClient(url('admin'), { serverSelectionTimeoutMS: 2000 })
      try {
        await client.connect()
        await client.db('admin').command({ ping: 1 })
      } finally {
        await client.close().catch(() => undefined)
      }
    },
    `the database container on 127.0.0.1:${port} to answer`,
  )
  return { ...server, url, urlBase }
}
