import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  rawRequest,
  startGateway,
  startRecordingUpstream,
  type RecordingUpstream,
  type RunningGateway,
} from '../test/helpers'

// The web app's index.html starts the session's renewal from an inline script.
const INLINE_SCRIPT = "\n  window.__earlySession = { renewal: fetch('/api/auth/refresh') }\n"
const INDEX_HTML = `<!doctype html><html><head><script>${INLINE_SCRIPT}</script>
<script type="module" crossorigin src="/assets/index-1.js"></script></head>
<body><script type="application/json" id="first-feed-page">{"jobs":[]}</script></body></html>`
const INLINE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  )
}

// Every header helmet gives, with the value it gives (the policy is checked on its own below).
const HELMET_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
}

describe('security headers', () => {
  let gateway: RunningGateway
  let people: RecordingUpstream
  let dist: string

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'gateway-csp-'))
    await writeFile(path.join(dist, 'index.html'), INDEX_HTML)
    people = await startRecordingUpstream('people')
    gateway = await startGateway({
      PUBLIC_BUCKET_URL: 'https://media.example.com/marketplace-media',
      S3_ENDPOINT: 'https://s3.example.com',
      WEB_DIST_DIR: dist,
      PEOPLE_URL: people.url,
    })
  })

  afterAll(async () => {
    await gateway.app.close()
    await people.close()
    await rm(dist, { recursive: true, force: true })
  })

  it.each([
    ['GET', '/'],
    ['GET', '/api/people?page=1'],
    ['HEAD', '/api/people?page=1'],
    ['GET', '/api/reports/posts'],
    ['GET', '/api/nothing'],
    ['GET', '/healthz'],
  ])('%s %s carries every header helmet gives, and the API policy', async (method, path) => {
    const response = await fetch(`${gateway.url}${path}`, { method })
    const host = `127.0.0.1:${gateway.port}`

    for (const [name, value] of Object.entries(HELMET_HEADERS)) {
      expect([name, response.headers.get(name)]).toEqual([name, value])
    }
    const policy = directives(response.headers.get('content-security-policy'))
    expect(policy.get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", `ws://${host}`, `wss://${host}`]),
    )
    if (path !== '/') expect(policy.get('script-src')).toEqual(["'self'"])
  })

  it.each(['/', '/api/reports/posts', '/api/nothing'])(
    '%s carries the security headers and no x-powered-by',
    async (path) => {
      const response = await fetch(`${gateway.url}${path}`, { headers: { accept: 'text/html' } })

      expect(response.headers.get('content-security-policy')).toBeTruthy()
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
      expect(response.headers.get('x-powered-by')).toBeNull()
    },
  )

  it('the policy fits the SPA: own scripts, bucket pictures, same-host sockets, S3 uploads, no framing', async () => {
    const response = await fetch(`${gateway.url}/`)
    const policy = directives(response.headers.get('content-security-policy'))
    const host = `127.0.0.1:${gateway.port}`

    expect(policy.get('default-src')).toEqual(["'self'"])
    // index.html's own inline script by its hash, on its answers only; never 'unsafe-inline'.
    expect(policy.get('script-src')).toEqual(["'self'", INLINE_SCRIPT_HASH])
    expect(policy.get('script-src-attr')).toEqual(["'none'"])
    const api = await fetch(`${gateway.url}/api/nothing`)
    expect(directives(api.headers.get('content-security-policy')).get('script-src')).toEqual([
      "'self'",
    ])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('frame-ancestors')).toEqual(["'none'"])
    expect(policy.get('img-src')).toEqual(
      expect.arrayContaining(["'self'", 'blob:', 'https://media.example.com/marketplace-media/']),
    )
    expect(policy.get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", `ws://${host}`, `wss://${host}`, 'https://s3.example.com']),
    )
    expect(policy.get('connect-src')).not.toContain('ws:')
    expect(policy.has('upgrade-insecure-requests')).toBe(false)
  })

  it('a Host header that tries to extend the policy is left out of it', async () => {
    const response = await rawRequest(`${gateway.url}/`, {
      headers: { host: "evil.example; script-src 'unsafe-inline'" },
    })
    const policy = directives(String(response.headers['content-security-policy']))

    // index.html's own script by its hash, and nothing the Host header tried to add.
    expect(policy.get('script-src')).toEqual(["'self'", INLINE_SCRIPT_HASH])
    expect(policy.get('connect-src')?.join(' ')).not.toContain('evil')
  })
})
