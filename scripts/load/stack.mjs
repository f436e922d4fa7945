// A whole marketplace stack of the load run's own, as processes, so its faults touch nobody
// else's servers: its own Kafka (KRaft, one node) and its own MongoDB-protocol server
// (FerretDB, the binary infra/local builds), every service `replicas` times and the gateway,
// as scripts/start.sh runs them. S3 (MinIO) and SMTP (Mailpit) are infra/local's, shared,
// reached through Toxiproxy when it runs, so "S3 down" and "SMTP down" are a proxy switched off,
// never a shared server stopped.
//
// With `toxiproxy: true` every service reaches the database, the broker, S3 and SMTP through
// a Toxiproxy server of its own (one proxy per server), so the fault runner can add latency,
// time-outs, resets or a partition between the services and each of them. Kafka advertises
// the proxy's address, so the clients' connections after the first one go through it too.
//
// Ports are taken between 20000 and 32000 (below Linux's ephemeral range) and kept: a server
// or instance killed and started again gets the same port, which the others still know.
import { execFileSync, spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes, randomInt } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { infraEnv, repoRoot } from '../bench/infra-env.mjs'

const fromNotifications = createRequire(join(repoRoot, 'services', 'notifications', 'package.json'))
const { Kafka, logLevel } = fromNotifications('kafkajs')
const { MongoClient } = fromNotifications('mongodb')

export const SERVICES = [
  'auth',
  'people',
  'jobs',
  'favorites',
  'reports',
  'notifications',
  'media',
  'conversations',
  'analytics',
]

const CACHE = process.env.MARKETPLACE_CACHE ?? join(homedir(), '.cache', 'marketplace')
const TOXIPROXY_VERSION = 'v2.5.0'
export const TOXIPROXY_BIN = join(CACHE, 'bin', `toxiproxy-server-${TOXIPROXY_VERSION}`)
const KAFKA_VERSION = '3.9.1'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const takenPorts = new Set()
/** A free port below the ephemeral range, never handed out twice by this process. */
export async function stablePort() {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = randomInt(20_000, 32_000)
    if (takenPorts.has(port)) continue
    const free = await new Promise((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (free) {
      takenPorts.add(port)
      return port
    }
  }
  throw new Error('no free port between 20000 and 32000')
}

async function waitUntil(what, check, timeoutMs = 120_000, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs
  let last
  while (Date.now() < deadline) {
    try {
      if (await check()) return
    } catch (error) {
      last = error
    }
    await sleep(intervalMs)
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (${last.message})` : ''}`)
}

/**
 * A child process that can be killed and started again with the same command (a server or a
 * service instance). Its output goes to `<logDir>/<name>.log`.
 */
function managedProcess({ name, command, args, env, cwd, logDir, ready }) {
  const self = {
    name,
    child: null,
    get pid() {
      return self.child?.pid
    },
    get running() {
      return Boolean(self.child && self.child.exitCode === null && self.child.signalCode === null)
    },
    async start() {
      const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' })
      const child = spawn(command, args, {
        cwd,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout.pipe(log)
      child.stderr.pipe(log)
      self.child = child
      await waitUntil(`${name} to serve (log ${join(logDir, `${name}.log`)})`, async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`)
        return ready()
      })
    },
    /** A signal to the process itself (SIGSTOP freezes it, SIGCONT thaws it). */
    signal(signal) {
      if (self.running) self.child.kill(signal)
    },
    /** SIGKILL, as a crash or an OOM kill: no shutdown hook runs. */
    async kill() {
      const child = self.child
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGCONT') // a frozen process takes SIGKILL anyway; this keeps it simple to read
      child.kill('SIGKILL')
      await exited
    },
    async stop() {
      const child = self.child
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGCONT')
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
  return self
}

/** Builds Toxiproxy's server from the Go module proxy into the cache, once (about 1 min). */
export function ensureToxiproxy() {
  if (existsSync(TOXIPROXY_BIN)) return TOXIPROXY_BIN
  const build = join(tmpdir(), `toxiproxy-build-${process.pid}`)
  console.log(`[load] building Toxiproxy ${TOXIPROXY_VERSION} from the Go module proxy...`)
  execFileSync(
    'go',
    ['install', '-trimpath', `github.com/Shopify/toxiproxy/v2/cmd/server@${TOXIPROXY_VERSION}`],
    {
      env: { ...process.env, GOBIN: build, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' },
      stdio: 'inherit',
    },
  )
  mkdirSync(join(CACHE, 'bin'), { recursive: true })
  execFileSync('mv', [join(build, 'server'), TOXIPROXY_BIN])
  rmSync(build, { recursive: true, force: true })
  return TOXIPROXY_BIN
}

/** Toxiproxy's HTTP API (https://github.com/Shopify/toxiproxy#http-api). */
export function toxiproxyClient(api) {
  async function call(method, path, body) {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    })
    if (!response.ok && !(method === 'DELETE' && response.status === 404))
      throw new Error(`toxiproxy ${method} ${path}: ${response.status} ${await response.text()}`)
    return response.status === 204 ? null : response.json().catch(() => null)
  }
  return {
    createProxy: (name, listen, upstream) =>
      call('POST', '/proxies', { name, listen, upstream, enabled: true }),
    /** A partition: the proxy closes its connections and refuses new ones. */
    setEnabled: (name, enabled) => call('POST', `/proxies/${name}`, { enabled }),
    addToxic: (proxy, toxic) => call('POST', `/proxies/${proxy}/toxics`, toxic),
    removeToxic: (proxy, toxic) => call('DELETE', `/proxies/${proxy}/toxics/${toxic}`),
  }
}

/**
 * Starts the stack. `replicas` instances of every service (2: two of everything, as
 * `REPLICAS=2 start.sh`); `toxiproxy` puts a proxy in front of every server.
 */
export async function startStack({
  replicas = 2,
  toxiproxy = false,
  name = `load-${randomBytes(3).toString('hex')}`,
  serviceEnv = {},
} = {}) {
  // The shared servers' addresses: the environment's when it has them (CI and scripts/test.sh
  // export .data/infra.env), else the file infra/local/infra.sh up wrote.
  const infra = process.env.S3_ENDPOINT && process.env.SMTP_PORT ? process.env : infraEnv()
  const runDir = join(repoRoot, '.data', 'load', name)
  const logDir = join(runDir, 'logs')
  mkdirSync(logDir, { recursive: true })
  const all = [] // every process, in start order
  const stack = {
    name,
    logDir,
    servers: {},
    instances: {},
    gateway: null,
    toxi: null,
    proxied: {}, // server -> proxy name, when Toxiproxy runs
    site: '',
    /** Every process of the stack with its pid (CPU figures are summed over them). */
    pids: () => all.filter((p) => p.running).map((p) => ({ name: p.name, pid: p.pid })),
    async stop() {
      // The gateway and the services at once (each closes its own connections), then the
      // servers they were using.
      const servers = new Set(Object.values(stack.servers))
      await Promise.all(
        all.filter((p) => !servers.has(p)).map((p) => p.stop().catch(() => undefined)),
      )
      for (const p of [...all].reverse().filter((p) => servers.has(p)))
        await p.stop().catch(() => undefined)
      // The servers' data goes; the logs stay for a look after the run.
      for (const dir of ['ferretdb', 'kafka'])
        rmSync(join(runDir, dir), { recursive: true, force: true })
    },
  }
  try {
    // ---- Toxiproxy, first: the servers' addresses below are its proxies' when it runs.
    const upstreamOf = {} // server -> address the services use
    let toxi = null
    if (toxiproxy) {
      const bin = ensureToxiproxy()
      const apiPort = await stablePort()
      const server = managedProcess({
        name: 'toxiproxy',
        command: bin,
        args: ['-host', '127.0.0.1', '-port', String(apiPort)],
        env: {},
        cwd: runDir,
        logDir,
        ready: async () => (await fetch(`http://127.0.0.1:${apiPort}/version`)).ok,
      })
      await server.start()
      all.push(server)
      toxi = toxiproxyClient(`http://127.0.0.1:${apiPort}`)
      stack.toxi = toxi
      stack.servers.toxiproxy = server
    }
    async function reach(server, realHostPort) {
      if (!toxi) return realHostPort
      const listen = `127.0.0.1:${await stablePort()}`
      await toxi.createProxy(server, listen, realHostPort)
      stack.proxied[server] = server
      return listen
    }

    // ---- The database: FerretDB, this run's own data directory.
    const mongoPort = await stablePort()
    const ferretdb = execFileSync(
      'bash',
      [join(repoRoot, 'infra/local/infra.sh'), 'binary-path', 'ferretdb'],
      {
        encoding: 'utf8',
      },
    ).trim()
    if (!existsSync(ferretdb))
      throw new Error(`no FerretDB at ${ferretdb}: bash infra/local/infra.sh install`)
    const mongo = managedProcess({
      name: 'database',
      command: ferretdb,
      args: ['--listen-addr', `127.0.0.1:${mongoPort}`, '--data-dir', join(runDir, 'ferretdb')],
      env: {},
      cwd: runDir,
      logDir,
      ready: async () => {
        const client = new MongoClient(
          `mongodb://127.0.0.1:${mongoPort}/admin?directConnection=true`,
          {
            serverSelectionTimeoutMS: 1000,
          },
        )
        try {
          await client.connect()
          await client.db('admin').command({ ping: 1 })
          return true
        } finally {
          await client.close().catch(() => undefined)
        }
      },
    })
    await mongo.start()
    all.push(mongo)
    stack.servers.database = mongo
    upstreamOf.database = await reach('database', `127.0.0.1:${mongoPort}`)

    // ---- The broker: Kafka (KRaft), advertising the address the services use.
    const kafkaPort = await stablePort()
    const controllerPort = await stablePort()
    upstreamOf.broker = await reach('broker', `127.0.0.1:${kafkaPort}`)
    const libs = join(CACHE, `kafka-${KAFKA_VERSION}-libs`)
    if (!existsSync(join(libs, '.complete')))
      throw new Error(`no Kafka jars in ${libs}: bash infra/local/infra.sh install`)
    const props = join(runDir, 'kafka.properties')
    writeFileSync(
      props,
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
        `listeners=PLAINTEXT://127.0.0.1:${kafkaPort},CONTROLLER://127.0.0.1:${controllerPort}`,
        `advertised.listeners=PLAINTEXT://${upstreamOf.broker}`,
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        `log.dirs=${join(runDir, 'kafka')}`,
        'num.partitions=1',
        'default.replication.factor=1',
        'min.insync.replicas=1',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=1',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        'auto.create.topics.enable=true',
        '',
      ].join('\n'),
    )
    const classpath = `${libs}/*`
    execFileSync(
      'java',
      [
        '-cp',
        classpath,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        'MkU3OEVBNTcwNTJENDM2Qk',
        '-c',
        props,
        '--ignore-formatted',
      ],
      { stdio: 'ignore' },
    )
    const kafka = managedProcess({
      name: 'broker',
      command: 'java',
      args: [
        '-Xms128m',
        '-Xmx512m',
        '-XX:+UseG1GC',
        '-Djava.awt.headless=true',
        `-Dlog4j.configuration=file:${join(repoRoot, 'infra/local/kafka/log4j.properties')}`,
        '-cp',
        classpath,
        'kafka.Kafka',
        props,
      ],
      env: {},
      cwd: runDir,
      logDir,
      ready: async () => {
        const admin = new Kafka({
          brokers: [`127.0.0.1:${kafkaPort}`],
          logLevel: logLevel.NOTHING,
          connectionTimeout: 2000,
          retry: { retries: 0 },
        }).admin()
        try {
          await admin.connect()
          await admin.listTopics()
          return true
        } finally {
          await admin.disconnect().catch(() => undefined)
        }
      },
    })
    await kafka.start()
    all.push(kafka)
    stack.servers.broker = kafka

    // ---- S3 and SMTP: infra/local's, through their proxies when Toxiproxy runs.
    const s3 = new URL(infra.S3_ENDPOINT)
    upstreamOf.s3 = await reach('s3', `${s3.hostname}:${s3.port}`)
    upstreamOf.smtp = await reach('smtp', `${infra.SMTP_HOST}:${infra.SMTP_PORT}`)
    const s3Endpoint = `http://${upstreamOf.s3}`
    const [smtpHost, smtpPort] = upstreamOf.smtp.split(':')

    // ---- The services, then the gateway (as scripts/start.sh, with this run's settings).
    const { publicKey, privateKey } = generateKeyPairSync('ed25519')
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' })
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' })
    const gatewayPort = await stablePort()
    const site = `http://127.0.0.1:${gatewayPort}`
    const bucket = `load-${name}`.toLowerCase().replace(/[^a-z0-9-]/g, '-')
    const sessionSecret = randomBytes(32).toString('hex')
    const common = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: upstreamOf.broker,
      KAFKA_GROUP_PREFIX: `${name}-`,
      JWT_PUBLIC_KEY: Buffer.from(publicPem).toString('base64'),
      // The outbox relay publishes right after each write; its sweep (what a killed
      // instance left) runs every 5 s here rather than the default minute, so a run of a few
      // minutes sees the sweep's work.
      OUTBOX_POLL_MS: '5000',
    }
    const own = {
      auth: {
        JWT_PRIVATE_KEY: Buffer.from(privatePem).toString('base64'),
        SESSION_SECRET: sessionSecret,
        SMTP_HOST: smtpHost,
        SMTP_PORT: smtpPort,
        APP_PUBLIC_URL: site,
        // Every simulated person signs up from this one address.
        RATE_LIMIT_MULTIPLIER: '1000',
      },
      notifications: { SMTP_HOST: smtpHost, SMTP_PORT: smtpPort, APP_PUBLIC_URL: site },
      media: {
        S3_ENDPOINT: s3Endpoint,
        S3_PUBLIC_URL: s3Endpoint,
        S3_REGION: infra.S3_REGION,
        S3_ACCESS_KEY: infra.S3_ACCESS_KEY,
        S3_SECRET_KEY: infra.S3_SECRET_KEY,
        S3_BUCKET: bucket,
        APP_ORIGINS: site,
        UPLOADS_PER_DAY: '100000',
        UPLOAD_COMPLETES_PER_MINUTE: '100000',
      },
      conversations: { MESSAGES_PER_MINUTE: '100000' },
    }
    const upstreams = {}
    for (const service of SERVICES) {
      const ports = []
      for (let n = 1; n <= replicas; n += 1) ports.push(await stablePort())
      stack.instances[service] = ports.map((port, i) =>
        managedProcess({
          name: `${service}-${i + 1}`,
          command: process.execPath,
          args: ['dist/server.js'],
          env: {
            ...common,
            ...own[service],
            ...serviceEnv[service],
            SERVICE_NAME: service,
            INSTANCE_ID: `${service}-${i + 1}`,
            PORT: String(port),
            MONGO_URL: `mongodb://${upstreamOf.database}/${service}?directConnection=true&retryWrites=false`,
          },
          cwd: join(repoRoot, 'services', service),
          logDir,
          ready: async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok,
        }),
      )
      for (const [i, instance] of stack.instances[service].entries()) {
        instance.url = `http://127.0.0.1:${ports[i]}`
      }
      upstreams[`${service.toUpperCase()}_URL`] = ports
        .map((p) => `http://127.0.0.1:${p}`)
        .join(',')
    }
    // Two services at a time: 18 Node starts at once on two cores time each other out.
    const queue = SERVICES.flatMap((service) => stack.instances[service])
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          await next.start()
          all.push(next)
        }
      }),
    )
    // Two gateways on one port when the services run twice (REUSE_PORT, as scripts/start.sh
    // with REPLICAS=2): one killed or restarted, the other serves. Each is awaited on its own
    // metrics port, since the shared port answers for whichever is up.
    const gatewayCount = replicas > 1 ? 2 : 1
    stack.gateways = []
    for (let n = 1; n <= gatewayCount; n += 1) {
      const metricsPort = await stablePort()
      const gateway = managedProcess({
        name: gatewayCount > 1 ? `gateway-${n}` : 'gateway',
        command: process.execPath,
        args: ['dist/server.js'],
        env: {
          ...upstreams,
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          SERVICE_NAME: 'gateway',
          PORT: String(gatewayPort),
          ...(gatewayCount > 1 ? { REUSE_PORT: 'true' } : {}),
          METRICS_PORT: String(metricsPort),
          PUBLIC_BUCKET_URL: `${s3Endpoint}/${bucket}`,
          S3_ENDPOINT: s3Endpoint,
          KAFKA_BROKERS: upstreamOf.broker,
          // Every simulated person comes from this one address.
          RATE_LIMIT_MAX: '10000000',
          ANALYTICS_RATE_LIMIT_MAX: '10000000',
        },
        cwd: join(repoRoot, 'services', 'gateway'),
        logDir,
        ready: async () =>
          (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).ok &&
          (await fetch(`${site}/readyz`)).ok,
      })
      await gateway.start()
      all.push(gateway)
      stack.gateways.push(gateway)
    }
    // The one the gateway-restart fault kills (the first of two).
    stack.gateway = stack.gateways[0]
    stack.site = site
    stack.mailApi = infra.MAIL_API_URL
    return stack
  } catch (error) {
    await stack.stop()
    throw error
  }
}
