#!/usr/bin/env node
// What tracing costs a service, in CPU time per request (docs/benchmarks.md): the jobs service
// answering GET /api/jobs (its feed, served from memory: the request with the least work of
// its own, where a fixed cost per request shows most), in three processes started side by side:
//   before   the build of a checkout without tracing (--before DIR, e.g. /work/main)
//   off      this build, TRACING unset (the default)
//   on       this build, TRACING=1, every trace kept and exported over OTLP/HTTP to a sink in
//            this script that accepts and drops them (the export's cost is the service's)
// The three take bursts of the same requests in turn, several rounds, so load on the machine
// falls on all alike; CPU is utime + stime of each process from /proc/<pid>/stat over its
// bursts, divided by the requests. Needs infra/local's servers (infra.sh up) and built services.
//
//   node scripts/bench/tracing-overhead.mjs [--before /work/main] [--requests 3000] [--rounds 5]
import { spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { infraEnv, repoRoot } from './infra-env.mjs'

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    requests: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
  },
})
const autocannon = createRequire(join(repoRoot, 'package.json'))('autocannon')
const infra = infraEnv()
const TICKS_PER_SECOND = 100 // USER_HZ: /proc's CPU times are in these

function cpuSecondsOf(pid) {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
}

/** An OTLP/HTTP receiver that takes every export and keeps nothing. */
async function startSink() {
  let exports = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      exports += 1
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, server }
}

const { publicKey } = generateKeyPairSync('ed25519')
const publicPem = publicKey.export({ type: 'spki', format: 'pem' })

async function startJobs(name, root, port, extraEnv) {
  const entry = join(root, 'services', 'jobs', 'dist', 'server.js')
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build that checkout first`)
  const child = spawn(process.execPath, [entry], {
    cwd: join(root, 'services', 'jobs'),
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SERVICE_NAME: 'jobs',
      KAFKA_BROKERS: infra.KAFKA_BROKERS,
      KAFKA_GROUP_PREFIX: `bench-tracing-${name}-${randomBytes(3).toString('hex')}-`,
      MONGO_URL: `${infra.MONGO_URL_BASE}/bench_tracing_${name}?${infra.MONGO_URL_OPTIONS}`,
      JWT_PUBLIC_KEY: Buffer.from(publicPem).toString('base64'),
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 240; i += 1) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) return { name, child, url, cpu: 0, requests: 0 }
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`${name} not ready within 2 minutes`)
}

async function burst(service, amount) {
  const before = cpuSecondsOf(service.child.pid)
  const result = await autocannon({
    url: `${service.url}/api/jobs`,
    connections: Number(args.connections),
    amount,
  })
  service.cpu += cpuSecondsOf(service.child.pid) - before
  service.requests += result.requests.total
  if (result.non2xx > 0) throw new Error(`${service.name}: ${result.non2xx} answers were not 2xx`)
}

const sink = await startSink()
const ports = [4890, 4891, 4892].map(
  (port) => port + Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0),
)
const services = []
try {
  if (args.before) services.push(await startJobs('before', args.before, ports[0], {}))
  services.push(await startJobs('off', repoRoot, ports[1], {}))
  services.push(
    await startJobs('on', repoRoot, ports[2], {
      TRACING: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    }),
  )
  // Warm-up: the JIT, the connection pools, the first spans exported.
  for (const service of services) await burst(service, 500)
  for (const service of services) Object.assign(service, { cpu: 0, requests: 0 })
  const amount = Number(args.requests)
  for (let round = 0; round < Number(args.rounds); round += 1) {
    for (const service of services) await burst(service, amount)
  }
  const base = services.find((service) => service.name === (args.before ? 'before' : 'off'))
  const perRequest = (service) => (service.cpu / service.requests) * 1e6
  console.log(
    `GET /api/jobs, ${args.rounds} rounds of ${amount} requests each, ${args.connections} connections`,
  )
  for (const service of services) {
    console.log(
      `${service.name.padEnd(7)} ${perRequest(service).toFixed(1).padStart(7)} µs CPU per request` +
        `  ratio to ${base.name}: ${(perRequest(service) / perRequest(base)).toFixed(3)}`,
    )
  }
  console.log(`OTLP exports received by the sink: ${sink.exports()}`)
} finally {
  for (const service of services) service.child.kill('SIGTERM')
  sink.server.close()
}
