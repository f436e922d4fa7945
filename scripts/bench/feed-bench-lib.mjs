// Shared by the feed benchmarks (posts-feed.mjs, people-feed.mjs): start a built service, the
// gateway and the floor (minimal-proxy.mjs, a bare node:http + undici proxy) as their own
// processes, drive them with autocannon, and print one report with the ratios the issues name. Absolute times drift on a shared machine; ratios taken in the
// same run do not.
import { spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { infraEnv, repoRoot } from './infra-env.mjs'

const autocannon = createRequire(join(repoRoot, 'package.json'))('autocannon')

export const log = (message) => console.log(`[bench] ${message}`)

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
  { script = 'dist/server.js', readyPath = '/readyz', nodeArgs = [] } = {},
) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: dir,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
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

/** Busy and idle CPU time (ms) of the whole machine, all cores, from /proc/stat. */
function machineCpuMs() {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  // user nice system idle iowait irq softirq steal ...; guest time is already in user.
  const idle = fields[3] + fields[4]
  const busy = fields.slice(0, 8).reduce((sum, value) => sum + value, 0) - idle
  return { busy: (busy * 1000) / 100, idle: (idle * 1000) / 100 }
}

/** CPU time (ms) FerretDB and Kafka have used so far (pid files of infra/local), or null. */
function infraCpuMs() {
  let total = 0
  for (const name of ['mongo', 'kafka']) {
    try {
      total += cpuMs(readFileSync(join(repoRoot, '.data', 'pids', `${name}.pid`), 'utf8').trim())
    } catch {
      return null
    }
  }
  return total
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
 * cores, /proc/stat), so what the two shared cores were spent on can be read from one table.
 */
export async function measure({ service, servicePort, proxies, scenarios, connections, duration }) {
  const results = []
  const routes = [
    ['direct', servicePort, null],
    ...proxies.map(({ via, port, process }) => [via, port, process]),
  ]
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
      }
      const result = await run(url, { connections, duration })
      const served = result.requests.total
      const machine = machineCpuMs()
      const busy = machine.busy - before.machine.busy
      results.push({
        machineCpuMsPerRequest: busy / served,
        machineIdleShare:
          (machine.idle - before.machine.idle) / (busy + machine.idle - before.machine.idle),
        serviceCpuMsPerRequest: (cpuMs(service.child.pid) - before.service) / served,
        proxyCpuMsPerRequest: proxy ? (cpuMs(proxy.child.pid) - before.proxy) / served : null,
        loadCpuMsPerRequest: (ownCpuMs() - before.load) / served,
        infraCpuMsPerRequest: before.infra === null ? null : (infraCpuMs() - before.infra) / served,
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

/** The tables of docs/benchmarks.md: raw rows, ratios, and the targets. */
export function report({ serviceName, results, scenarios, databaseMs }) {
  const ms = (value) => (value === null ? '–' : value.toFixed(3))
  console.log(
    `\n| scenario | via | req/s | p50 ms | p99 ms | errors | ${serviceName} CPU ms/req | proxy CPU ms/req | autocannon CPU ms/req | FerretDB + Kafka CPU ms/req | machine CPU ms/req | idle |\n|---|---|---|---|---|---|---|---|---|---|---|---|`,
  )
  for (const r of results) {
    console.log(
      `| ${r.scenario} | ${r.via} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${ms(r.serviceCpuMsPerRequest)} | ${ms(r.proxyCpuMsPerRequest)} | ${ms(r.loadCpuMsPerRequest)} | ${ms(r.infraCpuMsPerRequest)} | ${ms(r.machineCpuMsPerRequest)} | ${(r.machineIdleShare * 100).toFixed(0)} % |`,
    )
  }
  const find = (scenario, via) => results.find((r) => r.scenario === scenario && r.via === via)
  const rps = (scenario, via) => find(scenario, via).requestsPerSecond
  const [firstPage, ...others] = scenarios.map(([name]) => name)
  const names = scenarios.map(([name]) => name)
  const each = (value) => names.map((name) => value(name).toFixed(2)).join(' / ')
  console.log(`\n| ratio, same run (${names.join(' / ')}) | value |\n|---|---|`)
  console.log(
    `| gateway ÷ direct req/s | ${each((name) => rps(name, 'gateway') / rps(name, 'direct'))} |`,
  )
  console.log(
    `| floor ÷ direct req/s | ${each((name) => rps(name, 'floor') / rps(name, 'direct'))} |`,
  )
  console.log(
    `| gateway ÷ floor req/s | ${each((name) => rps(name, 'gateway') / rps(name, 'floor'))} |`,
  )
  console.log(
    `| gateway CPU ÷ floor CPU per proxied request | ${each((name) => find(name, 'gateway').proxyCpuMsPerRequest / find(name, 'floor').proxyCpuMsPerRequest)} |`,
  )
  console.log(
    `| gateway CPU ÷ ${serviceName} CPU per proxied request | ${each((name) => find(name, 'gateway').proxyCpuMsPerRequest / find(name, 'gateway').serviceCpuMsPerRequest)} |`,
  )
  for (const name of others) {
    console.log(
      `| ${name} ÷ ${firstPage}, direct p99 | ${(find(name, 'direct').p99 / Math.max(1, find(firstPage, 'direct').p99)).toFixed(2)} |`,
    )
  }
  console.log(
    `| database ${firstPage} query ÷ direct ${firstPage} p50 | ${(databaseMs / Math.max(1, find(firstPage, 'direct').p50)).toFixed(0)} |`,
  )
  const worstP99 = Math.max(...results.filter((r) => r.via === 'direct').map((r) => r.p99))
  console.log(
    `\nTarget p99 ≤ 50 ms direct: ${worstP99 <= 50 ? 'met' : 'NOT met'} (worst ${worstP99} ms).`,
  )
  const worst = (via) => Math.min(...names.map((name) => rps(name, via) / rps(name, 'direct')))
  console.log(
    `Target gateway ≥ 70 % of direct: ${worst('gateway') >= 0.7 ? 'met' : 'NOT met'} (worst ${(worst('gateway') * 100).toFixed(0)} %; the floor proxy: worst ${(worst('floor') * 100).toFixed(0)} %).`,
  )
}

/**
 * The whole run of a feed benchmark: a fresh database filled by `generate(db)`, the same page
 * asked of FerretDB (`timeDatabaseQuery(db)`, ms), the service and the gateway as processes,
 * then `measure` and `report`. `MongoClient` comes from the service's own dependencies.
 */
export async function runFeedBenchmark({
  serviceName, // 'jobs' or 'people': the folder under services/, the upstream the gateway names
  port,
  MongoClient,
  generate,
  timeDatabaseQuery,
  firstPagePath,
  scenarios,
  args,
}) {
  const infra = infraEnv()
  const database = `bench_${serviceName}_${randomBytes(4).toString('hex')}`
  const mongoUrl = `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`
  const client = new MongoClient(mongoUrl)
  await client.connect()
  const db = client.db(database)
  const processes = []
  const gatewayPort = 4980
  const floorPort = 4981
  try {
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
      { script: 'minimal-proxy.mjs', readyPath: '/healthz' },
    )
    processes.push(floor.child)
    await floor.ready()

    const firstPage = await (await fetch(`http://127.0.0.1:${port}${firstPagePath}`)).json()
    log(`feed: ${firstPage.pagination.total} listed, ${firstPage.pagination.totalPages} pages`)
    const results = await measure({
      service,
      servicePort: port,
      proxies: [
        { via: 'gateway', port: gatewayPort, process: gateway },
        { via: 'floor', port: floorPort, process: floor },
      ],
      scenarios,
      connections: Number(args.connections),
      duration: Number(args.duration),
    })
    report({ serviceName, results, scenarios, databaseMs })
  } finally {
    for (const child of processes) child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    if (!args.keep) await db.dropDatabase()
    await client.close()
  }
}
