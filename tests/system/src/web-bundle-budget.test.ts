import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import http, { type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { freePort, startService, type RunningService } from './processes'

const root = join(__dirname, '..', '..', '..')

interface HomeRouteMeasure {
  jsGzipKB: number
  budgetKB: number
  rows: Array<{ file: string; source: string; raw: number; gzip: number }>
}

/** The home route's files as scripts/bench/web-bundle-size.mjs reads them from the build. */
function measureHomeRoute(): HomeRouteMeasure {
  const output = execFileSync(
    process.execPath,
    [join(root, 'scripts', 'bench', 'web-bundle-size.mjs'), '--json'],
    { encoding: 'utf8' },
  )
  return JSON.parse(output) as HomeRouteMeasure
}

/** node:http: the bytes as they travel, not decoded as fetch would. */
function getOnTheWire(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        )
      })
      .on('error', reject)
  })
}

// The web app's budget: the home route's initial JavaScript is at most 170 KB gzip, measured from
// the production build (turbo builds apps/web before these tests) by the same script that
// docs/benchmarks.md quotes.
describe('the web app bundle', () => {
  it('keeps the home route within its initial JavaScript budget', () => {
    const result = measureHomeRoute()
    expect(result.budgetKB).toBe(170)
    // The entry and the home page chunk at least: a manifest that lost them would measure 0.
    expect(result.rows.length).toBeGreaterThanOrEqual(2)
    expect(result.jsGzipKB).toBeGreaterThan(10)
    expect(result.jsGzipKB).toBeLessThanOrEqual(result.budgetKB)
  })
})

// What a browser actually downloads. The built gateway serves the built app,
// and the home route's page, scripts and styles are fetched through it as a browser asks
// for them (Accept-Encoding: br, gzip); the bytes on the wire are added up.
describe('the home route on the wire, through the gateway', () => {
  /** KB on the wire: index.html, the entry, the home page's chunk and their imports, CSS. */
  const WIRE_BUDGET_KB = 170
  let gateway: RunningService
  let servedDist: string

  beforeAll(async () => {
    servedDist = await mkdtemp(join(tmpdir(), 'web-dist-budget-'))
    await cp(join(root, 'apps', 'web', 'dist'), servedDist, { recursive: true })
    const port = String(await freePort())
    gateway = await startService('gateway-bundle-budget', 'services/gateway', {
      PORT: port,
      WEB_DIST_DIR: servedDist,
    })
  }, 150_000)

  afterAll(async () => {
    await gateway?.stop()
    await rm(servedDist, { recursive: true, force: true })
  })

  const asBrowser = (path: string, accept = '*/*') =>
    getOnTheWire(`${gateway.url}${path}`, { accept, 'accept-encoding': 'br, gzip' })

  it('sends index.html, every script and stylesheet in brotli, within the budget', async () => {
    const page = await asBrowser('/', 'text/html')
    expect(page.status).toBe(200)
    expect(page.headers['content-encoding']).toBe('br')
    expect(page.headers.vary).toMatch(/accept-encoding/i)
    // The app shell paints before any script: the top bar and the feed's outline are in it.
    const html = brotliDecompressSync(page.body).toString('utf8')
    expect(html).toContain('skeleton-card')

    const files = measureHomeRoute().rows.map((row) => row.file)
    expect(files.some((file) => file.endsWith('.css'))).toBe(true)
    const rows = []
    for (const file of files) {
      const answer = await asBrowser(`/${file}`)
      expect({ file, status: answer.status }).toEqual({ file, status: 200 })
      rows.push({ file, bytes: answer.body.length, encoding: answer.headers['content-encoding'] })
    }
    // Files too small to gain from compression are sent as they are; everything else is brotli.
    for (const row of rows.filter((r) => r.bytes >= 1024)) {
      expect(row).toEqual({ ...row, encoding: 'br' })
    }
    const wireKB = (page.body.length + rows.reduce((sum, row) => sum + row.bytes, 0)) / 1024
    console.log(
      `home route on the wire: ${wireKB.toFixed(1)} KB (budget ${WIRE_BUDGET_KB} KB), ${rows.length + 1} files`,
    )
    expect(wireKB).toBeGreaterThan(10)
    expect(wireKB).toBeLessThanOrEqual(WIRE_BUDGET_KB)
  })

  // The session's renewal starts from an inline script of index.html; the policy
  // allows exactly that script, by its hash, on the page's answers (never 'unsafe-inline').
  it("runs index.html's inline script under the gateway's policy, by its hash", async () => {
    const page = await asBrowser('/settings-account', 'text/html')
    const html = brotliDecompressSync(page.body).toString('utf8')
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!)
    expect(inline).toHaveLength(1)
    expect(inline[0]).toContain('/api/auth/refresh')
    const hash = `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`
    const policy = String(page.headers['content-security-policy'])
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(policy)?.[1]?.split(/\s+/)
    expect(scriptSrc).toEqual(["'self'", hash])
  })

  it('sends gzip to a browser without brotli', async () => {
    const [entry] = measureHomeRoute().rows.map((row) => row.file)
    const answer = await getOnTheWire(`${gateway.url}/${entry}`, { 'accept-encoding': 'gzip' })

    expect(answer.headers['content-encoding']).toBe('gzip')
  })
})
