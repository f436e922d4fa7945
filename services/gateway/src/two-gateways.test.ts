import http from 'node:http'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { enableReuseportHandover } from '@marketplace/service-kit'
import { closeServer, listen, unusedUrl } from './test/helpers'

// Two real gateway processes on one port (REUSE_PORT, as start.sh runs them with REPLICAS=2)
// under a steady stream of calls, each on a connection of its own: one is killed outright,
// started again, then the other is stopped as a planned restart stops it (SIGTERM). No call
// is ever refused; a call the killed one held may break with it, one the stopped one held
// is answered (it drains before it exits). That last part needs the kernel to hand the
// connections still queued at the stopping gateway to the other one (tcp_migrate_req, which
// scripts/start.sh turns on for REPLICAS=2): without it a loaded machine resets one or two.

// The gateway's own source, compiled on the fly with the SWC jest uses (as run-service.test).
const CHILD = `
const { readFileSync } = require('node:fs')
const swc = require('node:module').createRequire(process.env.JEST_CONFIG)('@swc/core')
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  })
  module._compile(code, filename)
}
require(process.env.GATEWAY_SRC + '/server')
`

/** How long the service behind takes to answer: calls are in flight when the signals land. */
const ANSWER_MS = 150
const WORKERS = 4

interface Outcome {
  startedAt: number
  endedAt: number
  status?: number
  error?: string
}

/** One GET on a connection of its own, so the kernel picks a gateway for each. */
function callOnce(port: number): Promise<Outcome> {
  const startedAt = Date.now()
  return new Promise((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: '/api/jobs/posts', agent: false, timeout: 10_000 },
      (response) => {
        response.resume()
        response.on('end', () =>
          resolve({ startedAt, endedAt: Date.now(), status: response.statusCode }),
        )
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ startedAt, endedAt: Date.now(), error: error.code ?? error.message }),
        )
      },
    )
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ startedAt, endedAt: Date.now(), error: error.code ?? error.message }),
    )
  })
}

describe('two gateways on one port', () => {
  const children: ChildProcess[] = []
  let upstream: http.Server
  let upstreamUrl: string
  let restoreHandover = () => {}

  beforeAll(async () => {
    const handover = enableReuseportHandover()
    restoreHandover = handover.restore
    expect(handover.state).toBe('on')
    upstream = http.createServer((request, response) => {
      request.resume()
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end('{"ok":true}')
      }, ANSWER_MS)
    })
    upstreamUrl = await listen(upstream)
  })
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    upstream.closeAllConnections()
    await closeServer(upstream)
    restoreHandover()
  })

  async function startGatewayProcess(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-e', CHILD], {
      env: {
        ...process.env,
        JEST_CONFIG: require.resolve('@marketplace/jest-config'),
        GATEWAY_SRC: __dirname,
        HOST: '127.0.0.1',
        PORT: String(port),
        REUSE_PORT: 'true',
        LOG_LEVEL: 'info',
        JOBS_URL: upstreamUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    let output = ''
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: string) => {
        output += chunk
        if (output.includes('Server listening')) resolve()
      }
      child.stdout!.setEncoding('utf8').on('data', onData)
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
      child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${output}`)))
    })
    return child
  }

  it('refuses no call while one is killed, restarted, and the other stopped for a restart', async () => {
    const port = Number(new URL(await unusedUrl()).port)
    const first = await startGatewayProcess(port)
    const second = await startGatewayProcess(port)

    const outcomes: Outcome[] = []
    let running = true
    const worker = async () => {
      while (running) outcomes.push(await callOnce(port))
    }
    const workers = Promise.all(Array.from({ length: WORKERS }, worker))
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

    await pause(1500)
    first.kill('SIGKILL')
    await once(first, 'exit')
    // When it was dead, not when the signal was sent: a call made between the two can still
    // reach the dying process's listening socket (seen on a loaded machine), and breaks with it.
    const diedAt = Date.now()
    await pause(1000)
    const replacement = await startGatewayProcess(port)
    await pause(1000)
    // A planned restart: the new one serves already, the old one drains and exits.
    const stoppedAt = Date.now()
    second.kill('SIGTERM')
    const [code] = (await once(second, 'exit')) as [number | null]
    await pause(1000)
    running = false
    await workers
    replacement.kill('SIGTERM')
    await once(replacement, 'exit')

    expect(code).toBe(0)
    expect(outcomes.length).toBeGreaterThan(40)
    // Not one refused, ever.
    expect(outcomes.filter((outcome) => outcome.error === 'ECONNREFUSED')).toEqual([])
    // The killed gateway's own calls may break with it; any started after it died was answered.
    const broken = outcomes.filter((outcome) => outcome.status !== 200)
    expect(broken.filter((outcome) => outcome.startedAt > diedAt)).toEqual([])
    expect(broken.length).toBeLessThanOrEqual(WORKERS)
    // Around the planned stop, every call was answered.
    const aroundStop = outcomes.filter((outcome) => outcome.endedAt >= stoppedAt)
    expect(aroundStop.length).toBeGreaterThan(0)
    expect(aroundStop.every((outcome) => outcome.status === 200)).toBe(true)
  }, 120_000)
})
