#!/usr/bin/env node
// What one access line costs a service, by pino destination (docs/gateway-performance.md):
// CPU time of the whole process (main thread and libuv's thread pool, which the asynchronous
// destinations write from) per line, the line as createServiceApp writes it: a child logger
// per request with its reqId, then `request` with method, url, status, ms and ip, through the
// same redaction. Each destination runs in a process of its own, in turn, several rounds; the
// lines go to /dev/null (or --to FILE), the event loop turning after every line (--every N:
// after N), as a server's does between requests. `none` formats each line and drops it: the
// cost of the line before any destination. CPU time per line is what matters here, and load on the machine
// disturbs it less than wall time.
//
//   node scripts/bench/access-line.mjs [--lines 100000] [--rounds 5] [--to /dev/null] [--every 1]
import { spawnSync } from 'node:child_process'
import { openSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'

const { values: args } = parseArgs({
  options: {
    lines: { type: 'string', default: '100000' },
    every: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '5' },
    to: { type: 'string', default: '/dev/null' },
    variant: { type: 'string' },
  },
})

const VARIANTS = {
  none: () => ({ write() {} }),
  // pino's default: sonic-boom, asynchronous, one write per line unless one is under way.
  default: (pino) => pino.destination({ dest: args.fd, sync: false }),
  sync: (pino) => pino.destination({ dest: args.fd, sync: true }),
  // createServiceApp's (packages/service-kit/src/create-app.ts).
  'batched 4 KB': (pino) =>
    pino.destination({ dest: args.fd, sync: false, minLength: 4096, periodicFlush: 1000 }),
}

if (args.variant) {
  const pino = createRequire(join(repoRoot, 'packages', 'service-kit', 'package.json'))('pino')
  args.fd = openSync(args.to, 'a')
  const destination = VARIANTS[args.variant](pino)
  const logger = pino(
    {
      level: 'info',
      base: { service: 'gateway' },
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    destination,
  )
  const lines = Number(args.lines)
  const every = Number(args.every)
  const before = process.cpuUsage()
  for (let i = 0; i < lines; i += 1) {
    logger.child({ reqId: crypto.randomUUID() }).info(
      {
        method: 'GET',
        url: `/api/people?page=${i % 50}&sort=desc`,
        statusCode: 200,
        ms: 3.4,
        ip: '127.0.0.1',
      },
      'request',
    )
    if (i % every === every - 1) await new Promise((resolve) => setImmediate(resolve))
  }
  if (destination.flush) await new Promise((resolve) => destination.flush(resolve))
  const { user, system } = process.cpuUsage(before)
  console.log(JSON.stringify({ usPerLine: (user + system) / lines }))
} else {
  const results = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]))
  for (let round = 1; round <= Number(args.rounds); round += 1) {
    for (const name of Object.keys(VARIANTS)) {
      const child = spawnSync(
        process.execPath,
        [
          new URL(import.meta.url).pathname,
          '--variant',
          name,
          '--lines',
          args.lines,
          '--to',
          args.to,
        ],
        { encoding: 'utf8' },
      )
      if (child.status !== 0) throw new Error(child.stderr)
      results[name].push(JSON.parse(child.stdout.trim().split('\n').pop()).usPerLine)
    }
    console.log(`[bench] round ${round}/${args.rounds} done`)
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  // The loop itself (uuid, child logger, the line's object) is in every variant alike.
  console.log(
    `\n| destination (${args.lines} lines to ${args.to}, ${args.every} per turn of the event loop) | CPU µs per line, median | rounds |\n|---|---|---|`,
  )
  for (const [name, values] of Object.entries(results)) {
    console.log(
      `| ${name} | ${median(values).toFixed(2)} | ${values.map((v) => v.toFixed(2)).join(', ')} |`,
    )
  }
}
