import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startGateway, type RunningGateway } from '../test/helpers'

// A build's index.html and its route preloads, as apps/web's Vite build writes them (shortened).
const INDEX_HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/boot-1.js" fetchpriority="low">
</head><body><div id="root"><main><!--page-outline--><div class="feed-outline"></div><!--/page-outline--></main></div></body></html>`
const ROUTE_PRELOADS = {
  '/': {
    scripts: ['assets/HomePage-1.js', 'assets/boot-1.js', 'assets/Picture-1.js'],
    styles: ['assets/HomePage-1.css'],
  },
  '/settings-account': {
    // gone-1.js: named but not written by the build (a CSS-only module's chunk): left out.
    scripts: [
      'assets/SettingsLayout-1.js',
      'assets/index-1.js',
      'assets/gone-1.js',
      'assets/AccountPage-1.js',
    ],
    styles: [],
    heading: 'Account',
    section: { title: 'Home place', hint: 'Only you see <it>.' },
  },
  // A section that is not text: the heading alone.
  '/settings-security': { scripts: [], styles: [], heading: 'Security', section: { title: 7 } },
  '/settings-help-support': { scripts: [], styles: [], heading: 'Help & <Support>' },
  '/settings-others': { scripts: [], styles: [], heading: 42 },
}

describe('each address preloads its page chunks with its HTML', () => {
  let workDir: string
  let gateway: RunningGateway

  async function startOn(withPreloads: boolean) {
    workDir = await mkdtemp(path.join(tmpdir(), 'gateway-route-preloads-'))
    const dist = path.join(workDir, 'dist')
    await mkdir(path.join(dist, '.vite'), { recursive: true })
    await writeFile(path.join(dist, 'index.html'), INDEX_HTML)
    await mkdir(path.join(dist, 'assets'))
    for (const name of ['index-1.js', 'boot-1.js', 'HomePage-1.js', 'HomePage-1.css']) {
      await writeFile(path.join(dist, 'assets', name), '/* built */')
    }
    for (const name of ['Picture-1.js', 'SettingsLayout-1.js', 'AccountPage-1.js']) {
      await writeFile(path.join(dist, 'assets', name), '/* built */')
    }
    if (withPreloads) {
      await writeFile(
        path.join(dist, '.vite', 'route-preloads.json'),
        JSON.stringify(ROUTE_PRELOADS),
      )
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
  const links = (html: string) => html.match(/<link [^>]*>/g) ?? []

  it("adds the address's files index.html does not name, at low priority, in the head", async () => {
    await startOn(true)
    const home = await page('/')

    expect(home.answer.status).toBe(200)
    expect(home.answer.headers.get('cache-control')).toBe('no-cache')
    expect(links(home.html)).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/boot-1.js" fetchpriority="low">',
      '<link rel="preload" as="style" crossorigin href="/assets/HomePage-1.css" fetchpriority="low">',
      '<link rel="modulepreload" crossorigin href="/assets/HomePage-1.js" fetchpriority="low">',
      '<link rel="modulepreload" crossorigin href="/assets/Picture-1.js" fetchpriority="low">',
    ])
    expect(home.html.indexOf('HomePage-1.js')).toBeLessThan(home.html.indexOf('</head>'))
  })

  it('a page whose heading paints with the HTML lists its files for after that paint instead', async () => {
    await startOn(true)
    const account = await page('/settings-account')

    // No preload link: Lighthouse counts every request before the largest paint as holding it
    // back (routes/chunks-after-first-paint).
    expect(links(account.html)).toEqual([])
    expect(account.html).toContain(
      '<script type="application/json" id="chunks-after-first-paint">' +
        '["/assets/boot-1.js","/assets/SettingsLayout-1.js","/assets/AccountPage-1.js"]</script>',
    )
  })

  it("puts a page's fixed heading in place of the feed's outline, escaped", async () => {
    await startOn(true)
    const account = await page('/settings-account')
    // With its first section's title and hint, escaped.
    expect(account.html).toContain(
      '<main><h1 class="shell-heading">Account</h1><div class="card"><div class="card-body">' +
        '<h2>Home place</h2><p class="shell-hint">Only you see &#60;it&#62;.</p></div></div></main>',
    )
    expect((await page('/settings-security')).html).toContain(
      '<main><h1 class="shell-heading">Security</h1><div class="card" aria-hidden="true">',
    )
    expect(account.html).not.toContain('feed-outline')
    expect(account.html).not.toContain('page-outline')
    // Still with its page's chunks, for after the first paint.
    expect(account.html).toContain('/assets/AccountPage-1.js')

    const help = await page('/settings-help-support')
    expect(help.answer.status).toBe(200)
    expect(help.html).toContain('<h1 class="shell-heading">Help &#38; &#60;Support&#62;</h1>')
    // Not text: no heading, the outline as built.
    expect((await page('/settings-others')).html).toBe(INDEX_HTML)
    // The feed keeps its outline.
    expect((await page('/')).html).toContain('<div class="feed-outline"></div>')
  })

  it('an address the build names nothing for gets index.html as built; the list is not served', async () => {
    await startOn(true)

    expect((await page('/about')).html).toBe(INDEX_HTML)
    expect((await fetch(`${gateway.url}/.vite/route-preloads.json`)).status).toBe(404)
  })

  it('without the list, every address gets index.html as built', async () => {
    await startOn(false)

    expect((await page('/')).html).toBe(INDEX_HTML)
    expect((await page('/settings-account')).html).toBe(INDEX_HTML)
  })
})
