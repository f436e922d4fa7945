import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { closeServer, listen, startGateway, type RunningGateway } from '../test/helpers'

// What the web app's build writes, reduced to what the gateway reads: the outline cards
// between the marks, and the app's preloaded chunks.
const INDEX_HTML = `<!doctype html><html><head>
<link rel="modulepreload" crossorigin href="/assets/boot-1a2b3c4d.js">
<script type="module" src="/assets/index-4f2a9c1b.js"></script></head>
<body><div id="root"><section class="shell-grid"><!--first-feed-page--><div class="card skeleton-card"></div><!--/first-feed-page--></section></div></body></html>`

const post = (overrides: Record<string, unknown>) => ({
  _id: '6650f0c2a1b2c3d4e5f60718',
  jobID: '6650f0c2a1b2c3d4e5f60718',
  userID: '6650f0c2a1b2c3d4e5f60001',
  title: 'Help moving a piano',
  location: 'Boston MA',
  salary: '$80',
  jobPicture: null,
  ...overrides,
})

const FEED = {
  jobs: [
    post({ title: 'Paint the fence <script>alert(1)</script> & "trim"' }),
    post({ location: null, jobPicture: 'jobImages/u1/3f6c.jpg' }),
  ],
  pagination: { page: 1, totalPages: 1, total: 2, limit: 12 },
}

describe('the home route with the first feed page', () => {
  let workDir: string
  let jobs: http.Server
  let jobsAnswer: { status: number; body: unknown; delayMs?: number }
  const jobsRequests: http.IncomingHttpHeaders[] = []
  let gateway: RunningGateway

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'gateway-first-page-'))
    await mkdir(path.join(workDir, 'assets'), { recursive: true })
    await writeFile(path.join(workDir, 'index.html'), INDEX_HTML)
    jobs = http.createServer((request, response) => {
      jobsRequests.push({ ...request.headers, url: request.url })
      const { status, body, delayMs = 0 } = jobsAnswer
      setTimeout(() => {
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(body))
      }, delayMs).unref()
    })
    gateway = await startGateway({
      WEB_DIST_DIR: workDir,
      JOBS_URL: await listen(jobs),
      PUBLIC_BUCKET_URL: 'https://pictures.example/bucket',
    })
  })

  beforeEach(() => {
    jobsAnswer = { status: 200, body: FEED }
    jobsRequests.length = 0
  })

  afterAll(async () => {
    await gateway.app.close()
    await closeServer(jobs)
    await rm(workDir, { recursive: true, force: true })
  })

  const home = (headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/`, { headers: { accept: 'text/html', ...headers } })

  it('renders the posts, escaped, with the answer the app reads and without its preloads', async () => {
    const response = await home({ cookie: 'theme=dark' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('vary')).toMatch(/cookie/i)
    const html = await response.text()
    expect(html).not.toContain('skeleton-card')
    expect(html).not.toContain('modulepreload')
    expect(html).toContain('<script type="module" src="/assets/index-4f2a9c1b.js">')
    // A preview for the eyes: hidden from assistive technology and role queries, which find
    // the app's own cards once it renders.
    expect(html.match(/<article [^>]*>/g)).toEqual([
      '<article class="card post-card post-card-grid" aria-hidden="true">',
      '<article class="card post-card post-card-grid" aria-hidden="true">',
    ])
    // The title is text, never markup; the masked location keeps its hint.
    expect(html).toContain(
      '<h3 class="post-card-title">Paint the fence &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;trim&#34;</h3>',
    )
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('Location visible once accepted')
    expect(html).toContain('src="/images/no-image.svg"')
    // The card's picture by its variants, as components/ui/Picture lists them.
    expect(html).toContain(
      '<source type="image/webp" srcset="https://pictures.example/bucket/jobImages/u1/3f6c.w480.webp 480w, https://pictures.example/bucket/jobImages/u1/3f6c.w960.webp 960w"',
    )
    expect(html).toContain('src="https://pictures.example/bucket/jobImages/u1/3f6c.w480.jpg"')
    // The answer itself, for the app's first render; `<` escaped so it cannot end the script.
    const data = /<script type="application\/json" id="first-feed-page">(.*?)<\/script>/.exec(html)
    expect(data?.[1]).not.toContain('<')
    expect(JSON.parse(data![1]!)).toEqual(FEED)
    // Asked for as anyone: none of the visitor's headers go to jobs.
    expect(jobsRequests).toHaveLength(1)
    expect(jobsRequests[0]).toMatchObject({ url: '/api/jobs?page=1&sort=desc' })
    expect(jobsRequests[0]!.cookie).toBeUndefined()
    expect(jobsRequests[0]!.authorization).toBeUndefined()
  })

  it('gives a browser that may be signed in the public cards, without the answer', async () => {
    const response = await home({ cookie: 'refresh_token=abc; xsrf=1' })
    expect(response.headers.get('vary')).toMatch(/cookie/i)
    const html = await response.text()
    // The same public cards as signed out: they paint with the HTML.
    expect(html).not.toContain('skeleton-card')
    expect(html).toContain(
      '<h3 class="post-card-title">Paint the fence &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;trim&#34;</h3>',
    )
    expect(html).toContain('src="https://pictures.example/bucket/jobImages/u1/3f6c.w480.jpg"')
    // Not the anonymous answer: the app shows the user's own first page, asked for with the
    // renewed session. Its scripts come after the first paint, as signed out.
    expect(html).not.toContain('id="first-feed-page"')
    expect(html).not.toContain('modulepreload')
    expect(html).toContain('<script type="module" src="/assets/index-4f2a9c1b.js">')
    // Asked for as anyone: not with the visitor's cookie.
    expect(jobsRequests).toHaveLength(1)
    expect(jobsRequests[0]!.cookie).toBeUndefined()
    expect(jobsRequests[0]!.authorization).toBeUndefined()
  })

  it('sends a browser that may be signed in the plain shell when the feed fails', async () => {
    jobsAnswer = { status: 503, body: { message: 'down' } }
    expect(await (await home({ cookie: 'refresh_token=abc' })).text()).toBe(INDEX_HTML)
  })

  it('sends the plain shell when the feed fails or has no posts', async () => {
    jobsAnswer = { status: 503, body: { message: 'down' } }
    expect(await (await home()).text()).toBe(INDEX_HTML)
    jobsAnswer = { status: 200, body: { jobs: [], pagination: FEED.pagination } }
    expect(await (await home()).text()).toBe(INDEX_HTML)
  })

  it('does not wait more than a second for the feed', async () => {
    jobsAnswer = { status: 200, body: FEED, delayMs: 3000 }
    const started = Date.now()
    expect(await (await home()).text()).toBe(INDEX_HTML)
    expect(Date.now() - started).toBeLessThan(2500)
  })

  it('serves the plain shell, asking jobs for nothing, to a home page whose query names its feed', async () => {
    for (const cookie of ['', 'refresh_token=abc']) {
      const response = await fetch(`${gateway.url}/?feed=job&near=Austin%2C+TX&within=25`, {
        headers: { accept: 'text/html', cookie },
      })
      expect(await response.text()).toBe(INDEX_HTML)
    }
    expect(jobsRequests).toHaveLength(0)
    // An empty query is the home page itself.
    expect(
      await (await fetch(`${gateway.url}/?`, { headers: { accept: 'text/html' } })).text(),
    ).toContain('id="first-feed-page"')
  })

  it('serves other client routes the plain shell', async () => {
    const response = await fetch(`${gateway.url}/settings-account`, {
      headers: { accept: 'text/html' },
    })
    expect(await response.text()).toBe(INDEX_HTML)
    expect(jobsRequests).toHaveLength(0)
  })
})
