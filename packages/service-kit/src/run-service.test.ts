import { spawn } from 'node:child_process'
import { once } from 'node:events'

// A real service process (createServiceApp + runService at LOG_LEVEL=info, this source
// compiled on the fly with the SWC jest uses), since what is tested is what happens to the
// log lines when the process exits: they are written asynchronously (create-app.ts), and a
// line still in pino's buffer at exit must not be lost.
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
const { createServiceApp } = require(process.env.KIT_SRC + '/create-app')
const { runService } = require(process.env.KIT_SRC + '/run-service')
createServiceApp({ serviceName: 'lines', logLevel: 'info' }).then(async (app) => {
  app.get('/hello', async () => ({ ok: true }))
  await runService(app, { host: '127.0.0.1', port: 0 })
  process.stderr.write('port ' + app.server.address().port + '\\n')
})
`

const REQUESTS = 2000

describe('runService', () => {
  it('a service stopped by SIGTERM right after its last answer has written every access line', async () => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      env: {
        ...process.env,
        JEST_CONFIG: require.resolve('@marketplace/jest-config'),
        KIT_SRC: __dirname,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    let stderr = ''
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
        const match = stderr.match(/port (\d+)\n/)
        if (match) resolve(Number(match[1]))
      })
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)))
    })

    // 50 at a time, as a loaded gateway sees them; each answered before the signal.
    let next = 0
    const worker = async () => {
      while (next < REQUESTS) {
        next += 1
        const response = await fetch(`http://127.0.0.1:${port}/hello`)
        expect(response.status).toBe(200)
        await response.arrayBuffer()
      }
    }
    await Promise.all(Array.from({ length: 50 }, worker))
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')

    expect(code).toBe(0)
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; url?: string; statusCode?: number })
    const accessLines = lines.filter((line) => line.msg === 'request' && line.url === '/hello')
    expect(accessLines).toHaveLength(REQUESTS)
    expect(accessLines.every((line) => line.statusCode === 200)).toBe(true)
    expect(lines.at(-1)?.msg).toBe('shutting down')
  })
})
