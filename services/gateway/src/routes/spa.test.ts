import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import http, { type IncomingHttpHeaders } from 'node:http'
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib'
import { rawRequest, startGateway, type RunningGateway } from '../test/helpers'

const INDEX_HTML =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-4f2a9c1b.js"></script></body></html>'
const ASSET_JS = 'console.log("app")'
// Large enough for the build to write its .br and .gz copies (apps/web/build/precompress-assets).
const BIG_JS = 'export const feed = "posts and people";\n'.repeat(100)

/** node:http, so the test chooses Accept-Encoding and sees the bytes as they travel. */
function getBytes(
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

describe('the built SPA', () => {
  let workDir: string
  let gateway: RunningGateway

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'gateway-spa-'))
    const dist = path.join(workDir, 'dist')
    await mkdir(path.join(dist, 'assets'), { recursive: true })
    await writeFile(path.join(dist, 'index.html'), INDEX_HTML)
    await writeFile(path.join(dist, 'assets', 'index-4f2a9c1b.js'), ASSET_JS)
    await writeFile(path.join(dist, 'assets', 'feed-9b1c2d3e.js'), BIG_JS)
    await writeFile(path.join(dist, 'assets', 'feed-9b1c2d3e.js.br'), brotliCompressSync(BIG_JS))
    await writeFile(path.join(dist, 'assets', 'feed-9b1c2d3e.js.gz'), gzipSync(BIG_JS))
    await writeFile(path.join(dist, 'index.html.br'), brotliCompressSync(INDEX_HTML))
    await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    await writeFile(path.join(dist, '.env'), 'SECRET=1')
    // Beside dist, not in it: must never be reachable.
    await writeFile(path.join(workDir, 'secret.txt'), 'top secret')
    gateway = await startGateway({ WEB_DIST_DIR: dist })
  })

  afterAll(async () => {
    await gateway.app.close()
    await rm(workDir, { recursive: true, force: true })
  })

  const browse = (urlPath: string) =>
    fetch(`${gateway.url}${urlPath}`, { headers: { accept: 'text/html,application/xhtml+xml' } })

  it('a hashed asset is served with a year-long immutable cache', async () => {
    const response = await fetch(`${gateway.url}/assets/index-4f2a9c1b.js`)

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await response.text()).toBe(ASSET_JS)
  })

  it('a file outside /assets/ is served but revalidated', async () => {
    const response = await fetch(`${gateway.url}/favicon.svg`)

    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-cache')
  })

  it.each(['/', '/login', '/settings-account', '/posts/64b7f0c2a1/details'])(
    'the client route %s gets index.html, never cached without revalidation',
    async (urlPath) => {
      const response = await browse(urlPath)

      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.text()).toBe(INDEX_HTML)
    },
  )

  it('a precompressed asset is sent in brotli to a browser that accepts it, with its type and a year-long cache', async () => {
    const response = await getBytes(`${gateway.url}/assets/feed-9b1c2d3e.js`, {
      'accept-encoding': 'gzip, deflate, br',
    })

    expect(response.status).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers['content-type']).toMatch(/javascript/)
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(response.body).toString()).toBe(BIG_JS)
  })

  it('the gzip copy goes to a browser without brotli, the file itself to one without either', async () => {
    const gzip = await getBytes(`${gateway.url}/assets/feed-9b1c2d3e.js`, {
      'accept-encoding': 'gzip',
    })
    const plain = await getBytes(`${gateway.url}/assets/feed-9b1c2d3e.js`, {
      'accept-encoding': 'identity',
    })

    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.body).toEqual(gzipSync(BIG_JS))
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/accept-encoding/i)
    expect(plain.body.toString()).toBe(BIG_JS)
  })

  it('index.html comes precompressed too, for / and for every client route', async () => {
    for (const urlPath of ['/', '/settings-account']) {
      const response = await getBytes(`${gateway.url}${urlPath}`, {
        accept: 'text/html',
        'accept-encoding': 'br, gzip',
      })

      expect(response.headers['content-encoding']).toBe('br')
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.headers.vary).toMatch(/accept-encoding/i)
      expect(brotliDecompressSync(response.body).toString()).toBe(INDEX_HTML)
    }
  })

  it('a missing asset is a 404, not index.html parsed as a script', async () => {
    const response = await browse('/assets/index-00000000.js')

    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ message: expect.any(String), code: 'NOT_FOUND' })
  })

  it('a client route asked for without text/html (a script, not a navigation) is a 404', async () => {
    const response = await fetch(`${gateway.url}/settings-account`, {
      headers: { accept: 'application/json' },
    })

    expect(response.status).toBe(404)
  })

  it('an unknown /api path is a 404 in the JSON error shape, even for a navigation', async () => {
    const response = await browse('/api/does-not-exist')

    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      message: 'No route for GET /api/does-not-exist',
      code: 'NOT_FOUND',
    })
  })

  it.each(['/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e/secret.txt'])(
    'the path %s cannot read a file outside the dist directory',
    async (urlPath) => {
      const response = await rawRequest(`${gateway.url}${urlPath}`, {
        headers: { accept: 'text/html' },
      })

      expect(response.body).not.toContain('top secret')
    },
  )

  it('a hidden file in the dist directory is not served', async () => {
    const response = await browse('/.env')

    expect(await response.text()).not.toContain('SECRET')
  })
})

describe('the SPA before the web app is built', () => {
  let gateway: RunningGateway

  beforeAll(async () => {
    gateway = await startGateway({ WEB_DIST_DIR: path.join(tmpdir(), 'gateway-no-such-dist-dir') })
  })

  afterAll(async () => {
    await gateway.app.close()
  })

  it('a client route answers a page saying the web app is not built and how to build it', async () => {
    const response = await fetch(`${gateway.url}/settings-account`, {
      headers: { accept: 'text/html' },
    })
    const page = await response.text()

    expect(response.status).toBe(503)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page).toContain('not built yet')
    expect(page).toContain('pnpm --filter @marketplace/web build')
  })

  it('the API keeps answering in JSON', async () => {
    const response = await fetch(`${gateway.url}/api/jobs/posts`)

    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' })
  })
})

describe('the web app configuration', () => {
  it('GET /app-config.json tells the app where pictures are, without a trailing slash', async () => {
    const gateway = await startGateway({ PUBLIC_BUCKET_URL: 'http://127.0.0.1:9000/pictures/' })
    try {
      const response = await fetch(`${gateway.url}/app-config.json`)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.json()).toEqual({ publicBucketUrl: 'http://127.0.0.1:9000/pictures' })
    } finally {
      await gateway.app.close()
    }
  })
})
