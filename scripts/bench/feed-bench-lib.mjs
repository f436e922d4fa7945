// Shared by the feed benchmarks (posts-feed.mjs, people-feed.mjs): start a built service and
// the gateway as their own processes, drive them with autocannon, and print one report with
// the ratios the issues name. Absolute times drift on a shared machine; ratios taken in the
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
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}

/** Runs `node dist/server.js` of a service; `ready()` waits for its /readyz. */
export function startProcess(name, dir, env, port) {
  const child = spawn(process.execPath, ['dist/server.js'], {
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
          const response = await fetch(`http://127.0.0.1:${port}/readyz`)
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
 * Every scenario direct to the service and through the gateway, after a 2 s warm-up each;
 * answers one row per scenario and route, with the CPU both processes spent per request.
 */
export async function measure({ service, servicePort, gateway, gatewayPort, scenarios, connections, duration }) {
  const results = []
  for (const [name, path] of scenarios) {
    for (const [via, base] of [['direct', `http://127.0.0.1:${servicePort}`], ['gateway', `http://127.0.0.1:${gatewayPort}`]]) {
      await run(`${base}${path}`, { connections, duration: 2 })
      log(`${name} via ${via}: ${connections} connections, ${duration} s...`)
      const before = { service: cpuMs(service.child.pid), gateway: cpuMs(gateway.child.pid) }
      const result = await run(`${base}${path}`, { connections, duration })
      const served = result.requests.total
      results.push({
        serviceCpuMsPerRequest: (cpuMs(service.child.pid) - before.service) / served,
        gatewayCpuMsPerRequest: (cpuMs(gateway.child.pid) - before.gateway) / served,
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
  console.log(`\n| scenario | via | req/s | p50 ms | p99 ms | errors | ${serviceName} CPU ms/req | gateway CPU ms/req |\n|---|---|---|---|---|---|---|---|`)
  for (const r of results) {
    console.log(
      `| ${r.scenario} | ${r.via} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.serviceCpuMsPerRequest.toFixed(3)} | ${r.gatewayCpuMsPerRequest.toFixed(3)} |`,
    )
  }
  const find = (scenario, via) => results.find((r) => r.scenario === scenario && r.via === via)
  const [firstPage, ...others] = scenarios.map(([name]) => name)
  console.log('\n| ratio | value |\n|---|---|')
  for (const [name] of scenarios) {
    console.log(`| ${name}: gateway ÷ direct req/s | ${(find(name, 'gateway').requestsPerSecond / find(name, 'direct').requestsPerSecond).toFixed(2)} |`)
  }
  for (const name of others) {
    console.log(`| ${name} ÷ ${firstPage}, direct p99 | ${(find(name, 'direct').p99 / Math.max(1, find(firstPage, 'direct').p99)).toFixed(2)} |`)
  }
  for (const [name] of scenarios) {
    const viaGateway = find(name, 'gateway')
    console.log(`| ${name}: gateway CPU ÷ ${serviceName} CPU per proxied request | ${(viaGateway.gatewayCpuMsPerRequest / viaGateway.serviceCpuMsPerRequest).toFixed(2)} |`)
  }
  console.log(`| database ${firstPage} query ÷ direct ${firstPage} p50 | ${(databaseMs / Math.max(1, find(firstPage, 'direct').p50)).toFixed(0)} |`)
  const worstP99 = Math.max(...results.filter((r) => r.via === 'direct').map((r) => r.p99))
  console.log(`\nTarget p99 ≤ 50 ms direct: ${worstP99 <= 50 ? 'met' : 'NOT met'} (worst ${worstP99} ms).`)
  const worstRatio = Math.min(...scenarios.map(([name]) => find(name, 'gateway').requestsPerSecond / find(name, 'direct').requestsPerSecond))
  console.log(`Target gateway ≥ 70 % of direct: ${worstRatio >= 0.7 ? 'met' : 'NOT met'} (worst ${(worstRatio * 100).toFixed(0)} %).`)
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
  try {
    log(`generating data into ${database} (FerretDB)...`)
    await generate(db)
    log('timing the page-1 query asked of the database instead...')
    const databaseMs = await timeDatabaseQuery(db)
    log(`database: ${databaseMs.toFixed(0)} ms for one filtered, sorted page of 12`)

    const { publicKey } = generateKeyPairSync('ed25519')
    const service = startProcess(serviceName, join(repoRoot, 'services', serviceName), {
      SERVICE_NAME: serviceName,
      MONGO_URL: mongoUrl,
      KAFKA_BROKERS: infra.KAFKA_BROKERS,
      KAFKA_GROUP_PREFIX: `${database}-`,
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }, port)
    processes.push(service.child)
    log(`starting the ${serviceName} service (it loads the feed index from the database)...`)
    const started = Date.now()
    await service.ready()
    log(`${serviceName} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const gateway = startProcess('gateway', join(repoRoot, 'services', 'gateway'), {
      SERVICE_NAME: 'gateway',
      [`${serviceName.toUpperCase()}_URL`]: `http://127.0.0.1:${port}`,
      // The limiter still runs on every request; only its budget is out of the way.
      RATE_LIMIT_MAX: '100000000',
    }, gatewayPort)
    processes.push(gateway.child)
    await gateway.ready()

    const firstPage = await (await fetch(`http://127.0.0.1:${port}${firstPagePath}`)).json()
    log(`feed: ${firstPage.pagination.total} listed, ${firstPage.pagination.totalPages} pages`)
    const results = await measure({
      service,
      servicePort: port,
      gateway,
      gatewayPort,
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
