import http from 'node:http'
import net from 'node:net'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { enableReuseportHandover, reuseportHandover } from './reuseport-handover'

// What the kernel setting changes, shown with two listeners on one port: one (a child
// process) stops accepting for a moment, as a loaded process does, then closes its socket,
// as a planned restart does; calls made meanwhile are queued at it. With the handover on,
// the other listener answers every one of them; with it off, the queued ones are reset.
// Writing the setting needs root, as CI runs.

const STOPPING_LISTENER = `
const net = require('node:net')
const server = net.createServer(() => {})
server.listen({ host: '127.0.0.1', port: Number(process.env.PORT), reusePort: true }, () => process.send('listening'))
process.on('message', () => {
  // Busy for a while, accepting nothing: the kernel queues this listener's share of the
  // connections. Then close, in the same turn, before any of them is accepted.
  const until = Date.now() + 1500
  while (Date.now() < until) {}
  server.close()
  process.send('closed')
  setTimeout(() => process.exit(0), 200)
})
`

function listenerThatAnswers(): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((_request, response) => response.end('answered'))
  return new Promise((resolve) => {
    // Port 0 first to learn a free port; the child joins it.
    server.listen({ host: '127.0.0.1', port: 0, reusePort: true }, () =>
      resolve({ server, port: (server.address() as net.AddressInfo).port }),
    )
  })
}

function call(port: number): Promise<'answered' | 'reset'> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve('answered'))
    })
    request.on('error', () => resolve('reset'))
  })
}

async function callsDuringAStop(): Promise<string[]> {
  const { server, port } = await listenerThatAnswers()
  const child: ChildProcess = spawn(process.execPath, ['-e', STOPPING_LISTENER], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  try {
    await once(child, 'message')
    child.send('stop')
    await new Promise((resolve) => setTimeout(resolve, 300))
    // Twenty calls while the child is busy: each lands on either listener (2^-20 that none
    // lands on the child).
    const outcomes = Promise.all(Array.from({ length: 20 }, () => call(port)))
    return await outcomes
  } finally {
    child.kill('SIGKILL')
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

describe('handing queued connections over on a planned stop (tcp_migrate_req)', () => {
  let restore = () => {}
  const before = reuseportHandover()

  beforeAll(() => {
    const handover = enableReuseportHandover()
    restore = handover.restore
    if (handover.state !== 'on') {
      throw new Error(
        `net.ipv4.tcp_migrate_req could not be turned on (${handover.state}): run as root`,
      )
    }
  })
  afterAll(() => restore())

  it('with it on, the other listener answers every call queued at the stopping one', async () => {
    expect(await callsDuringAStop()).toEqual(Array(20).fill('answered'))
  }, 20_000)

  it('with it off, some of those calls are reset (what a planned restart did before)', async () => {
    writeFileSync('/proc/sys/net/ipv4/tcp_migrate_req', '0')
    try {
      const outcomes = await callsDuringAStop()
      expect(outcomes).toContain('reset')
      expect(outcomes).toContain('answered')
    } finally {
      writeFileSync('/proc/sys/net/ipv4/tcp_migrate_req', '1')
    }
  }, 20_000)

  it('reads the setting back as the kernel holds it', () => {
    expect(['on', 'off', 'unsupported']).toContain(before)
    expect(reuseportHandover()).toBe('on')
  })
})
