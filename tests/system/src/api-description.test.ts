import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { startFullStack, type FullStack } from './web/full-stack'

/**
 * The API as a plain client sees it: the one OpenAPI document the gateway serves is valid,
 * describes every route the services answer, and holds against a property-based fuzzing run
 * (Schemathesis) signed out and signed in: no 5xx, no answer outside its own schema.
 * Schemathesis comes from PyPI into the project's cache (scripts/lib/common.sh).
 */
const SCHEMATHESIS = process.env.SCHEMATHESIS_BIN ?? ''
/** Per operation and phase; with about 60 operations, several thousand requests in all. */
const MAX_EXAMPLES = process.env.FUZZ_MAX_EXAMPLES ?? '15'

interface Operation {
  security?: Array<Record<string, string[]>>
  parameters?: unknown[]
  requestBody?: unknown
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}
interface ApiDocument {
  openapi: string
  info: Record<string, unknown>
  paths: Record<string, Record<string, Operation>>
}

describe('the API description', () => {
  let stack: FullStack
  let document: ApiDocument
  const workDir = mkdtempSync(join(tmpdir(), 'api-description-'))

  beforeAll(async () => {
    stack = await startFullStack('api')
    // Complete once every service answers its document (they start in a few seconds).
    document = await waitFor(
      async () => {
        const response = await fetch(`${stack.site}/api/docs/openapi.json`)
        const body = (await response.json()) as ApiDocument
        return response.ok && !body.info['x-unavailable'] ? body : undefined
      },
      { timeoutMs: 60_000, what: 'a complete API document' },
    )
  })
  afterAll(async () => {
    await stack?.stop()
  })

  it('is a valid OpenAPI 3.1 document', () => {
    const file = join(workDir, 'openapi.json')
    writeFileSync(file, JSON.stringify(document))
    // The validator is ESM-only: it runs in a plain Node process, outside jest's runtime.
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator'
      const result = await new Validator().validate(process.argv[1])
      console.log(JSON.stringify(result))`
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script, file], {
        cwd: __dirname,
        encoding: 'utf8',
      }),
    ) as { valid: boolean; errors?: unknown }
    expect(result).toEqual({ valid: true })
    expect(document.openapi).toBe('3.1.0')
  })

  it('describes every route the gateway routes to a service, with its answers', () => {
    expect(document.info['x-undocumented']).toBeUndefined()
    const prefixes = [
      '/api/auth',
      '/logout',
      '/api/users',
      '/api/people',
      '/api/jobs',
      '/api/favorites',
      '/api/reports',
      '/api/notifications',
      '/api/email',
      '/api/upload',
      '/api/analytics',
      '/api/conversations',
    ]
    for (const prefix of prefixes) {
      expect(Object.keys(document.paths).filter((path) => path.startsWith(prefix))).not.toEqual([])
    }
  })

  it('declares only statuses a route can send', () => {
    const problems: string[] = []
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`
        const statuses = Object.keys(operation.responses)
        const successes = statuses.filter((status) => status.startsWith('2'))
        // One success, or two where the route says which happened (201 added, 200 already there).
        if (successes.length === 0) problems.push(`${name}: no success status`)
        // 401 comes from the bearer token check: only routes that take one can send it.
        const takesToken = (operation.security ?? []).some(
          (requirement) => 'bearerAuth' in requirement,
        )
        if (statuses.includes('401') && !takesToken && !path.startsWith('/api/auth'))
          problems.push(`${name}: 401 without a token to refuse`)
        if (takesToken && !(operation.security ?? []).some((r) => Object.keys(r).length === 0))
          if (!statuses.includes('401')) problems.push(`${name}: requires a token, no 401`)
        // 400 comes from validating input: a route with no input cannot send it.
        const takesInput = (operation.parameters ?? []).length > 0 || operation.requestBody
        if (statuses.includes('400') && !takesInput) problems.push(`${name}: 400 without input`)
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status !== '204' && !response.content)
            problems.push(`${name}: ${status} has no body schema`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('holds under a fuzzing run, signed out and signed in: no 5xx, no answer outside its schema', async () => {
    expect(existsSync(SCHEMATHESIS)).toBe(true)
    const { login } = siteClient(stack.site)
    const member = await login(stack.admin.email, stack.admin.password)
    const runs = [
      { name: 'signed-out', headers: [] as string[] },
      { name: 'signed-in', headers: ['-H', `Authorization: Bearer ${member.token}`] },
    ]
    const figures: Record<string, { requests: number; serverErrors: number; exitCode: number }> = {}
    for (const run of runs) {
      const har = join(workDir, `${run.name}.har`)
      const junit = join(workDir, `${run.name}.xml`)
      const exitCode = await new Promise<number>((resolve) => {
        const child = spawn(
          SCHEMATHESIS,
          [
            'run',
            `${stack.site}/api/docs/openapi.json`,
            '--url',
            stack.site,
            '--checks',
            'not_a_server_error,response_schema_conformance',
            '--phases',
            'examples,coverage,fuzzing',
            '--max-examples',
            MAX_EXAMPLES,
            '--seed',
            '20261124',
            '--workers',
            '2',
            '--generation-database',
            'none',
            '--suppress-health-check',
            'all',
            '--request-timeout',
            '20',
            '--no-color',
            '--report',
            'har,junit',
            '--report-har-path',
            har,
            '--report-junit-path',
            junit,
            ...run.headers,
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        )
        let output = ''
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
        child.on('exit', (code) => {
          writeFileSync(join(workDir, `${run.name}.log`), output)
          if (code !== 0) console.log(`schemathesis ${run.name}:\n${output.slice(-20_000)}`)
          resolve(code ?? 1)
        })
      })
      const entries = (
        JSON.parse(readFileSync(har, 'utf8')) as {
          log: { entries: Array<{ response: { status: number } }> }
        }
      ).log.entries
      figures[run.name] = {
        requests: entries.length,
        serverErrors: entries.filter((entry) => entry.response.status >= 500).length,
        exitCode,
      }
    }
    console.log(`fuzzing figures (${workDir}): ${JSON.stringify(figures)}`)
    writeFileSync(join(workDir, 'figures.json'), JSON.stringify(figures, null, 2))
    expect(figures['signed-out']!.requests + figures['signed-in']!.requests).toBeGreaterThanOrEqual(
      2000,
    )
    expect(figures).toEqual({
      'signed-out': { requests: figures['signed-out']!.requests, serverErrors: 0, exitCode: 0 },
      'signed-in': { requests: figures['signed-in']!.requests, serverErrors: 0, exitCode: 0 },
    })
  }, 1_500_000)
})
