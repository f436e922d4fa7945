import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startGateway, type RunningGateway } from '../test/helpers'

// A build's index.html and manifest, as apps/web's Vite build writes them (shortened).
const INDEX_HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/boot-1.js" fetchpriority="low">
<link rel="modulepreload" crossorigin href="/assets/api-1.js" fetchpriority="low">
</head><body><div id="root"></div></body></html>`
const MANIFEST = {
  'src/main.tsx': { file: 'assets/index-1.js', isEntry: true },
  'src/boot.tsx': { file: 'assets/boot-1.js', imports: ['_api-1.js'] },
  '_api-1.js': { file: 'assets/api-1.js' },
  '_Picture-1.js': { file: 'assets/Picture-1.js', imports: ['_api-1.js'] },
  'src/features/feed/HomePage.tsx': {
    file: 'assets/HomePage-1.js',
    imports: ['src/boot.tsx', '_api-1.js', '_Picture-1.js'],
    css: ['assets/HomePage-1.css'],
  },
  'src/features/feed/first-feed-page.ts': { file: 'assets/first-feed-page-1.js' },
  'src/features/settings/SettingsLayout.tsx': { file: 'assets/SettingsLayout-1.js' },
}

describe('the home route preloads its page chunks (issue 22)', () => {
  let workDir: string
  let gateway: RunningGateway

  async function startOn(withManifest: boolean) {
    workDir = await mkdtemp(path.join(tmpdir(), 'gateway-home-preloads-'))
    const dist = path.join(workDir, 'dist')
    await mkdir(path.join(dist, '.vite'), { recursive: true })
    await writeFile(path.join(dist, 'index.html'), INDEX_HTML)
    if (withManifest) {
      await writeFile(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST))
    }
    gateway = await startGateway({ WEB_DIST_DIR: dist })
  }

  afterEach(async () => {
    await gateway?.app.close()
    await rm(workDir, { recursive: true, force: true })
  })

  const page = async (pathname: string) => {
    const answer = await fetch(`${gateway.url}${pathname}`, { headers: { accept: 'text/html' } })
    return { answer, html: await answer.text() }
  }

  it('/ names the home page, its imports and its stylesheet once, at low priority', async () => {
    await startOn(true)
    const { answer, html } = await page('/')

    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-cache')
    const links = html.match(/<link [^>]*>/g) ?? []
    expect(links).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/boot-1.js" fetchpriority="low">',
      '<link rel="modulepreload" crossorigin href="/assets/api-1.js" fetchpriority="low">',
      '<link rel="preload" as="style" crossorigin href="/assets/HomePage-1.css" fetchpriority="low">',
      '<link rel="modulepreload" crossorigin href="/assets/HomePage-1.js" fetchpriority="low">',
      '<link rel="modulepreload" crossorigin href="/assets/Picture-1.js" fetchpriority="low">',
      '<link rel="modulepreload" crossorigin href="/assets/first-feed-page-1.js" fetchpriority="low">',
    ])
    expect(html.indexOf('HomePage-1.js')).toBeLessThan(html.indexOf('</head>'))
  })

  it('other client routes get index.html as built; the manifest itself is not served', async () => {
    await startOn(true)
    const { html } = await page('/settings-account')

    expect(html).toBe(INDEX_HTML)
    expect((await fetch(`${gateway.url}/.vite/manifest.json`)).status).toBe(404)
  })

  it('without a manifest, / is index.html as built', async () => {
    await startOn(false)
    const { html } = await page('/')

    expect(html).toBe(INDEX_HTML)
  })
})
