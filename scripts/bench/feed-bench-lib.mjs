// Shared by the feed benchmarks (posts-feed.mjs, people-feed.mjs): start a built service, the
// gateway and the floor (minimal-proxy.mjs, a bare node:http + undici proxy) as their own
// processes, drive them with autocannon, and print one report with the ratios the issues name. Absolute times drift on a shared machine; ratios taken in the
// same run do not.
//
// --pin gives the proxy under test (gateway or floor) a core of its own: it runs on the last
// core (`taskset -c`), and everything else the run uses (the service, this process with
// autocannon, this worktree's FerretDB and Kafka from .data/pids, re-pinned with `taskset -a
// -p` and given their old affinity back at the end) on the others. Other users' processes
// still share both cores; the report gives the load average and how much of the proxy's core
// the proxy itself used. --log-level sets LOG_LEVEL of the service and the gateway (warn by
// default; info is production's: one access line per request), their stdout going to
// /dev/null or, with --log-dir, to a file each. --rounds repeats the measurement; the report
// gives the median of the rounds and their spread. --baseline-gateway DIR also starts the
// gateway of another checkout (DIR/services/gateway/dist/server.js, built there, with that
// checkout's own dependencies) on the proxy's core and measures it in the same rounds as
// `baseline`, so a change to the gateway is compared with what it replaces in one session.
import { execFileSync, spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { infraEnv, repoRoot } from './infra-env.mjs'

const autocannon = createRequire(join(repoRoot, 'package.json'))('autocannon')

export const log = (message) => console.log(`[bench] ${message}`)

/** The options every feed benchmark takes besides its data size (parseArgs form). */
export const feedBenchOptions = {
  duration: { type: 'string', default: '10' },
  connections: { type: 'string', default: '50' },
  keep: { type: 'boolean', default: false },
  pin: { type: 'boolean', default: false },
  'log-level': { type: 'string', default: 'warn' },
  'log-dir': { type: 'string' },
  rounds: { type: 'string', default: '1' },
  'baseline-gateway': { type: 'string' },
}

/** With --pin: the proxy's core (the last) and the others', as taskset lists. */
function coreLists() {
  const cores = availableParallelism()
  if (cores < 2) throw new Error('--pin needs at least 2 cores')
  return { proxy: String(cores - 1), others: cores === 2 ? '0' : `0-${cores - 2}` }
}

/** Every thread of `pid` onto `cpus`; answers the affinity it had, to give back. */
function pinProcess(pid, cpus) {
  const before = execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' })
    .trim()
    .split(' ')
    .pop()
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' })
  return before
}

/** A deterministic random source, so every run generates the same data. */
export function seededRandom(seed) {
  let state = seed >>> 0
  return () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

/**
 * Runs `node <script>` (default `dist/server.js`) of a service; `ready()` waits for its
 * `readyPath` (default /readyz) to answer 2xx.
 */
export function startProcess(
  name,
  dir,
  env,
  port,
  {
    script = 'dist/server.js',
    readyPath = '/readyz',
    nodeArgs = [],
    cpus = null,
    logLevel = 'warn',
    stdout = 'ignore',
  } = {},
) {
  // taskset execs node, so the child's pid is node's (its /proc CPU time, its SIGTERM).
  const [command, args] = cpus
    ? ['taskset', ['-c', cpus, process.execPath, ...nodeArgs, script]]
    : [process.execPath, [...nodeArgs, script]]
  const child = spawn(command, args, {
    cwd: dir,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: logLevel },
    stdio: ['ignore', stdout, 'inherit'],
  })
  return {
    child,
    async ready(timeoutMs = 300_000) {
      const until = Date.now() + timeoutMs
      while (Date.now() < until) {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`)
        try {
          const response = await fetch(`http://127.0.0.1:${port}${readyPath}`)
          if (response.ok) return
        } catch {}
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
      throw new Error(`${name} not ready`)
    },
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are fields 14 and 15 of stat; here 0-based after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // USER_HZ is 100 on Linux
}

function run(url, { connections, duration }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, pipelining: 1 }, (error, result) =>
      error ? reject(error) : resolve(result),
    )
  })
}

/**
 * Busy and idle CPU time (ms) of the whole machine (all cores, `cpu`) or of one core (`cpuN`),
 * from /proc/stat.
 */
function machineCpuMs(line = 'cpu') {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((row) => row.startsWith(`${line} `))
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  // user nice system idle iowait irq softirq steal ...; guest time is already in user.
  const idle = fields[3] + fields[4]
  const busy = fields.slice(0, 8).reduce((sum, value) => sum + value, 0) - idle
  return { busy: (busy * 1000) / 100, idle: (idle * 1000) / 100 }
}

/** The pids of this worktree's FerretDB and Kafka (infra/local's pid files), or null. */
function infraPids() {
  try {
    return ['mongo', 'kafka'].map((name) =>
      readFileSync(join(repoRoot, '.data', 'pids', `${name}.pid`), 'utf8').trim(),
    )
  } catch {
    return null
  }
}

/** CPU time (ms) FerretDB and Kafka have used so far, or null. */
function infraCpuMs() {
  const pids = infraPids()
  return pids && pids.reduce((total, pid) => total + cpuMs(pid), 0)
}

/** CPU time (ms) this process, the load generator (autocannon runs in it), has used so far. */
function ownCpuMs() {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * Every scenario direct to the service, through the gateway, and through the floor (the
 * minimal node:http + undici proxy of minimal-proxy.mjs), after a 2 s warm-up each; answers
 * one row per scenario and route, with the CPU per request of the service, the proxy in front
 * of it (gateway or floor), the load generator, FerretDB + Kafka, and the whole machine (all
 * cores, /proc/stat), so what the cores were spent on can be read from one table. With a
 * `proxyCore` (--pin), also how busy that core was and what share of it the proxy used.
 */
export async function measure({
  service,
  servicePort,
  proxies,
  scenarios,
  connections,
  duration,
  proxyCore = null,
}) {
  const results = []
  const routes = [
    ['direct', servicePort, null],
    ...proxies.map(({ via, port, process }) => [via, port, process]),
  ]
  const core = () => (proxyCore === null ? null : machineCpuMs(`cpu${proxyCore}`))
  for (const [name, path] of scenarios) {
    for (const [via, port, proxy] of routes) {
      const url = `http://127.0.0.1:${port}${path}`
      await run(url, { connections, duration: 2 })
      log(`${name} via ${via}: ${connections} connections, ${duration} s...`)
      const before = {
        service: cpuMs(service.child.pid),
        proxy: proxy ? cpuMs(proxy.child.pid) : 0,
        load: ownCpuMs(),
        infra: infraCpuMs(),
        machine: machineCpuMs(),
        core: core(),
      }
      const result = await run(url, { connections, duration })
      const served = result.requests.total
      const machine = machineCpuMs()
      const coreAfter = core()
      const busy = machine.busy - before.machine.busy
      const proxyMs = proxy ? cpuMs(proxy.child.pid) - before.proxy : null
      const coreBusy = coreAfter && coreAfter.busy - before.core.busy
      const coreIdle = coreAfter && coreAfter.idle - before.core.idle
      results.push({
        machineCpuMsPerRequest: busy / served,
        machineIdleShare:
          (machine.idle - before.machine.idle) / (busy + machine.idle - before.machine.idle),
        serviceCpuMsPerRequest: (cpuMs(service.child.pid) - before.service) / served,
        proxyCpuMsPerRequest: proxy ? proxyMs / served : null,
        loadCpuMsPerRequest: (ownCpuMs() - before.load) / served,
        infraCpuMsPerRequest: before.infra === null ? null : (infraCpuMs() - before.infra) / served,
        // The proxy's core: busy share, and the share of that busy time the proxy's own.
        proxyCoreBusyShare: coreAfter && coreBusy / (coreBusy + coreIdle),
        proxyShareOfCoreBusy: coreAfter && proxy ? proxyMs / coreBusy : null,
        scenario: name,
        via,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
      })
    }
  }
  return results
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * The tables of docs/benchmarks.md: the median row of each scenario and route over the
 * rounds, then the ratios, each taken within a round (the routes of one round run one after
 * the other) and given as the median of the rounds and their range, and the targets.
 */
export function report({ serviceName, rounds, scenarios, databaseMs, loads }) {
  const ms = (value) => (value === null || value === undefined ? '–' : value.toFixed(3))
  const pct = (value) => (value === null ? '–' : `${(value * 100).toFixed(0)} %`)
  const names = scenarios.map(([name]) => name)
  const vias = rounds[0].filter((r) => r.scenario === names[0]).map((r) => r.via)
  const rowsOf = (scenario, via) =>
    rounds.map((results) => results.find((r) => r.scenario === scenario && r.via === via))
  const med = (scenario, via, field) => {
    const values = rowsOf(scenario, via).map((r) => r[field])
    return values[0] === null ? null : median(values)
  }
  const pinned = rounds[0][0].proxyCoreBusyShare !== null
  console.log(
    `\nMedian of ${rounds.length} round(s); load average (1 min) at each round's start: ${loads.map((l) => l.toFixed(2)).join(', ')}.`,
  )
  console.log(
    `\n| scenario | via | req/s | p50 ms | p99 ms | errors | ${serviceName} CPU ms/req | proxy CPU ms/req | autocannon CPU ms/req | FerretDB + Kafka CPU ms/req | machine CPU ms/req | idle |${pinned ? ' proxy core busy | proxy share of its core |' : ''}\n|---|---|---|---|---|---|---|---|---|---|---|---|${pinned ? '---|---|' : ''}`,
  )
  for (const scenario of names) {
    for (const via of vias) {
      const m = (field) => med(scenario, via, field)
      const errors = rowsOf(scenario, via).reduce((sum, r) => sum + r.errors, 0)
      console.log(
        `| ${scenario} | ${via} | ${m('requestsPerSecond').toFixed(0)} | ${m('p50')} | ${m('p99')} | ${errors} | ${ms(m('serviceCpuMsPerRequest'))} | ${ms(m('proxyCpuMsPerRequest'))} | ${ms(m('loadCpuMsPerRequest'))} | ${ms(m('infraCpuMsPerRequest'))} | ${ms(m('machineCpuMsPerRequest'))} | ${pct(m('machineIdleShare'))} |${pinned ? ` ${pct(m('proxyCoreBusyShare'))} | ${pct(m('proxyShareOfCoreBusy'))} |` : ''}`,
      )
    }
  }
  // A ratio within each round; its median over the rounds, and the range when there are several.
  const ratio = (value) => {
    const cell = (name) => {
      const perRound = rounds.map((results) => {
        const find = (via) => results.find((r) => r.scenario === name && r.via === via)
        return value(find)
      })
      const spread =
        perRound.length > 1
          ? ` (${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`
          : ''
      return { median: median(perRound), text: `${median(perRound).toFixed(2)}${spread}` }
    }
    return names.map(cell)
  }
  const rows = [
    [
      'gateway ÷ direct req/s',
      (find) => find('gateway').requestsPerSecond / find('direct').requestsPerSecond,
    ],
    [
      'floor ÷ direct req/s',
      (find) => find('floor').requestsPerSecond / find('direct').requestsPerSecond,
    ],
    [
      'gateway ÷ floor req/s',
      (find) => find('gateway').requestsPerSecond / find('floor').requestsPerSecond,
    ],
    [
      'gateway CPU ÷ floor CPU per proxied request',
      (find) => find('gateway').proxyCpuMsPerRequest / find('floor').proxyCpuMsPerRequest,
    ],
    [
      `gateway CPU ÷ ${serviceName} CPU per proxied request`,
      (find) => find('gateway').proxyCpuMsPerRequest / find('gateway').serviceCpuMsPerRequest,
    ],
  ]
  if (vias.includes('baseline')) {
    rows.push(
      [
        'gateway CPU ÷ baseline gateway CPU per proxied request',
        (find) => find('gateway').proxyCpuMsPerRequest / find('baseline').proxyCpuMsPerRequest,
      ],
      [
        'baseline gateway CPU ÷ floor CPU per proxied request',
        (find) => find('baseline').proxyCpuMsPerRequest / find('floor').proxyCpuMsPerRequest,
      ],
    )
  }
  console.log(`\n| ratio, same round (${names.join(' / ')}) | value |\n|---|---|`)
  const computed = {}
  for (const [label, value] of rows) {
    computed[label] = ratio(value)
    console.log(`| ${label} | ${computed[label].map((c) => c.text).join(' / ')} |`)
  }
  const [firstPage, ...others] = names
  for (const name of others) {
    console.log(
      `| ${name} ÷ ${firstPage}, direct p99 | ${(med(name, 'direct', 'p99') / Math.max(1, med(firstPage, 'direct', 'p99'))).toFixed(2)} |`,
    )
  }
  console.log(
    `| database ${firstPage} query ÷ direct ${firstPage} p50 | ${(databaseMs / Math.max(1, med(firstPage, 'direct', 'p50'))).toFixed(0)} |`,
  )
  const worstP99 = Math.max(...names.map((name) => med(name, 'direct', 'p99')))
  console.log(
    `\nTarget p99 ≤ 50 ms direct: ${worstP99 <= 50 ? 'met' : 'NOT met'} (worst ${worstP99} ms).`,
  )
  // The gateway's CPU per proxied request within 1.3× the bare proxy's (the
  // former "70 % of direct throughput" cannot be shown on two shared cores:
  // docs/gateway-performance.md).
  const worstCpu = Math.max(
    ...computed['gateway CPU ÷ floor CPU per proxied request'].map((c) => c.median),
  )
  console.log(
    `Target gateway CPU per proxied request ≤ 1.3× the floor's: ${worstCpu <= 1.3 ? 'met' : 'NOT met'} (worst median ${worstCpu.toFixed(2)}×).`,
  )
}

/**
 * The whole run of a feed benchmark: a fresh database filled by `generate(db)`, the same page
 * asked of FerretDB (`timeDatabaseQuery(db)`, ms), the service, the gateway and the floor as
 * processes (pinned with --pin), then `measure` once per round and `report`. `MongoClient`
 * comes from the service's own dependencies. Ports are offset by MARKETPLACE_PORT_OFFSET, as
 * infra/local's are, so runs in different worktrees do not collide.
 */
export async function runFeedBenchmark({
  serviceName, // 'jobs' or 'people': the folder under services/, the upstream the gateway names
  port: basePort,
  MongoClient,
  generate,
  timeDatabaseQuery,
  firstPagePath,
  scenarios,
  args,
}) {
  const infra = infraEnv()
  const offset = Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0)
  const port = basePort + offset
  const database = `bench_${serviceName}_${randomBytes(4).toString('hex')}`
  const mongoUrl = `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`
  const client = new MongoClient(mongoUrl)
  await client.connect()
  const db = client.db(database)
  const processes = []
  const openFiles = []
  const restoreAffinity = []
  const gatewayPort = 4980 + offset
  const floorPort = 4981 + offset
  const baselinePort = 4982 + offset
  const cores = args.pin ? coreLists() : null
  const logLevel = args['log-level']
  const stdoutOf = (name) => {
    if (!args['log-dir']) return 'ignore'
    mkdirSync(args['log-dir'], { recursive: true })
    const fd = openSync(join(args['log-dir'], `${name}.log`), 'a')
    openFiles.push(fd)
    return fd
  }
  try {
    if (cores) {
      log(`pinning: the proxy under test on CPU ${cores.proxy}; the rest on CPU ${cores.others}`)
      pinProcess(process.pid, cores.others)
      for (const pid of infraPids() ?? []) {
        const mask = pinProcess(pid, cores.others)
        restoreAffinity.push(() =>
          execFileSync('taskset', ['-a', '-p', mask, pid], { stdio: 'ignore' }),
        )
      }
    }
    log(`generating data into ${database} (FerretDB)...`)
    await generate(db)
    log('timing the page-1 query asked of the database instead...')
    const databaseMs = await timeDatabaseQuery(db)
    log(`database: ${databaseMs.toFixed(0)} ms for one filtered, sorted page of 12`)

    const { publicKey } = generateKeyPairSync('ed25519')
    const service = startProcess(
      serviceName,
      join(repoRoot, 'services', serviceName),
      {
        SERVICE_NAME: serviceName,
        MONGO_URL: mongoUrl,
        KAFKA_BROKERS: infra.KAFKA_BROKERS,
        KAFKA_GROUP_PREFIX: `${database}-`,
        JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
      port,
      { cpus: cores?.others, logLevel, stdout: stdoutOf(serviceName) },
    )
    processes.push(service.child)
    log(`starting the ${serviceName} service (it loads the feed index from the database)...`)
    const started = Date.now()
    await service.ready()
    log(`${serviceName} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const gateway = startProcess(
      'gateway',
      join(repoRoot, 'services', 'gateway'),
      {
        SERVICE_NAME: 'gateway',
        [`${serviceName.toUpperCase()}_URL`]: `http://127.0.0.1:${port}`,
        // The limiter still runs on every request; only its budget is out of the way.
        RATE_LIMIT_MAX: '100000000',
      },
      gatewayPort,
      {
        // For profiling the gateway under this load: GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p'.
        nodeArgs: process.env.GATEWAY_NODE_ARGS ? process.env.GATEWAY_NODE_ARGS.split(' ') : [],
        cpus: cores?.proxy,
        logLevel,
        stdout: stdoutOf('gateway'),
      },
    )
    processes.push(gateway.child)
    await gateway.ready()
    // The floor: a bare node:http + undici proxy in front of the same service (never shipped).
    const floor = startProcess(
      'floor proxy',
      join(repoRoot, 'scripts', 'bench'),
      {
        UPSTREAM: `http://127.0.0.1:${port}`,
      },
      floorPort,
      { script: 'minimal-proxy.mjs', readyPath: '/healthz', cpus: cores?.proxy },
    )
    processes.push(floor.child)
    await floor.ready()
    // Another checkout's gateway (--baseline-gateway DIR), same environment, same core.
    let baseline = null
    if (args['baseline-gateway']) {
      const dir = join(args['baseline-gateway'], 'services', 'gateway')
      baseline = startProcess(
        'baseline gateway',
        dir,
        {
          SERVICE_NAME: 'gateway',
          [`${serviceName.toUpperCase()}_URL`]: `http://127.0.0.1:${port}`,
          RATE_LIMIT_MAX: '100000000',
        },
        baselinePort,
        { cpus: cores?.proxy, logLevel, stdout: stdoutOf('baseline-gateway') },
      )
      processes.push(baseline.child)
      await baseline.ready()
      log(`baseline gateway: ${dir}`)
    }

    const firstPage = await (await fetch(`http://127.0.0.1:${port}${firstPagePath}`)).json()
    log(`feed: ${firstPage.pagination.total} listed, ${firstPage.pagination.totalPages} pages`)
    log(`LOG_LEVEL=${logLevel} (service and gateway), stdout to ${args['log-dir'] ?? '/dev/null'}`)
    const rounds = []
    const loads = []
    for (let round = 1; round <= Number(args.rounds); round += 1) {
      loads.push(loadavg()[0])
      log(
        `round ${round}/${args.rounds}, load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      )
      rounds.push(
        await measure({
          service,
          servicePort: port,
          proxies: [
            { via: 'gateway', port: gatewayPort, process: gateway },
            { via: 'floor', port: floorPort, process: floor },
            ...(baseline ? [{ via: 'baseline', port: baselinePort, process: baseline }] : []),
          ],
          scenarios,
          connections: Number(args.connections),
          duration: Number(args.duration),
          proxyCore: cores ? cores.proxy : null,
        }),
      )
    }
    report({ serviceName, rounds, scenarios, databaseMs, loads })
  } finally {
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    for (const fd of openFiles) closeSync(fd)
    for (const restore of restoreAffinity) {
      try {
        restore()
      } catch {}
    }
    if (!args.keep) await db.dropDatabase()
    await client.close()
  }
}
