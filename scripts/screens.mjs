#!/usr/bin/env node
// Screenshots of every route of the web app: at 1280 px and 375 px, signed out
// and signed in, into docs/screens/<width>/<signed-in|signed-out>-<route>.png, with a README
// that links them all, so a reviewer can look at the whole app without running it. The
// routes come from apps/web/src/config/paths.ts, so a new route gets its screenshots without
// touching this file. tests/system/src/screens.test.ts runs it against the test stack.
//
//   node scripts/screens.mjs [--base http://127.0.0.1:8080] [--out docs/screens]
//     [--user-email ava.turner@demo.marketplace.local] [--user-password Demo1234!]
//     [--admin-email admin@marketplace.local] [--admin-password Admin1234!]
//
// It reads the signed-in user's first conversation for the two message routes; a user with
// none (the demo seed makes none) opens one by requesting a post of someone else and writing
// a first message, the only data it ever creates. Exits 1 when a page showed the app's error
// screen or its 404, after writing every screenshot.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// The browser tests own playwright-core (and the system's Chromium, scripts/lib/common.sh).
const { chromium } = createRequire(join(root, 'tests/system/package.json'))('playwright-core')

export const WIDTHS = [
  { width: 1280, viewport: { width: 1280, height: 800 }, mobile: false },
  { width: 375, viewport: { width: 375, height: 812 }, mobile: true },
]
export const STATES = ['signed-out', 'signed-in']

/** Every route of paths.ts (string values, nested groups included; the builders are skipped). */
export async function routesOfApp() {
  // Node 24 runs the TypeScript module as it is (type stripping): the app's own list.
  const { paths } = await import(pathToFileURL(join(root, 'apps/web/src/config/paths.ts')).href)
  const found = []
  const walk = (value) => {
    if (typeof value === 'string' && value.startsWith('/')) found.push(value)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(paths)
  return found.map((pattern) => ({ pattern, name: routeName(pattern) }))
}

/**
 * A file-name part per route: '/' is home, '/settings-account' settings-account,
 * '/messages/:conversationId' messages-conversation, '/messages/request/:requestId'
 * messages-request (a parameter that repeats the segment before it adds nothing).
 */
export function routeName(pattern) {
  if (pattern === '/') return 'home'
  const parts = []
  for (const part of pattern.slice(1).split('/')) {
    const word = part.startsWith(':') ? part.slice(1).replace(/Id$/, '') : part
    if (word !== parts.at(-1)) parts.push(word)
  }
  return parts.join('-').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
}

const say = (message) => console.log(`[screens] ${message}`)

async function api(base, method, path, { token, body } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        origin: base,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    // The gateway's per-address budget is shared with the browser: wait it out, like a user.
    if ((response.status === 429 || response.status === 503) && attempt < 6) {
      const wait = Math.min(Number(response.headers.get('retry-after') ?? 2), 30)
      await new Promise((done) => setTimeout(done, wait * 1000))
      continue
    }
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
}

async function apiLogin(base, email, password) {
  const answer = await api(base, 'POST', '/api/auth/direct-login', { body: { email, password } })
  if (answer.status !== 200) {
    throw new Error(
      `could not log in ${email} through ${base}: ${answer.status} ${answer.body?.message ?? ''}`,
    )
  }
  return { token: answer.body.accessToken, userId: answer.body.user._id }
}

/**
 * Values for the routes with parameters: the user's first conversation (and its request). A
 * user with none requests the newest post of someone else and writes in its conversation,
 * which the request's event opens a moment later.
 */
async function routeParameters(base, user) {
  const first = async () =>
    (await api(base, 'GET', '/api/conversations', { token: user.token })).body?.items?.[0]
  let conversation = await first()
  if (!conversation) {
    const feed = await api(base, 'GET', '/api/jobs?limit=30', { token: user.token })
    const post = feed.body?.jobs?.find(
      (job) => job.userID !== user.userId && job.userId !== user.userId,
    )
    if (!post)
      throw new Error(
        'no conversation for the user, and no post of someone else to request to open one',
      )
    say(`the user has no conversation: requesting "${post.title}" to open one`)
    const sent = await api(base, 'POST', '/api/jobs/requests', {
      token: user.token,
      body: { postID: post._id },
    })
    if (sent.status !== 201 && sent.status !== 409) {
      throw new Error(
        `could not request a post to open a conversation: ${sent.status} ${sent.body?.message ?? ''}`,
      )
    }
    for (let i = 0; i < 60 && !conversation; i += 1) {
      await new Promise((done) => setTimeout(done, 500))
      conversation = await first()
    }
    if (!conversation) throw new Error('the conversation of the request did not open within 30 s')
    await api(base, 'POST', `/api/conversations/${conversation._id}/messages`, {
      token: user.token,
      body: { text: 'Hi! I can come on Saturday morning.', clientId: 'screens-first-message' },
    })
  }
  return { conversationId: conversation._id, requestId: conversation.requestId }
}

/** The route whose pattern matches a path (its parameters any one segment). */
function routeAt(routes, pathname) {
  return routes.find(({ pattern }) =>
    new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}$`).test(pathname),
  )
}

function fill(pattern, parameters) {
  return pattern.replace(/:(\w+)/g, (_, key) => {
    if (!parameters[key]) throw new Error(`no value for :${key} of ${pattern}`)
    return encodeURIComponent(parameters[key])
  })
}

async function newContext(browser, width) {
  const context = await browser.newContext({
    viewport: width.viewport,
    // A phone's layout and touch, at one pixel per CSS pixel to keep the files small.
    isMobile: width.mobile,
    hasTouch: width.mobile,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
  })
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  return { context, page }
}

/** Logs in through the app's own form, with "Keep me signed in" so a reload keeps the session. */
async function logIn(page, base, email, password) {
  // What the page reported, for the message if its form never shows.
  const problems = []
  const onError = (error) => problems.push(`page error: ${error.message}`)
  const onConsole = (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`)
  page.on('pageerror', onError)
  page.on('console', onConsole)
  await page.goto(`${base}/login`)
  const heading = page.getByRole('heading', { name: 'Log in', exact: true })
  try {
    await heading.waitFor()
  } catch (error) {
    // Once (2026-11-29, a CI run) the login page loaded every chunk and never rendered its
    // form, with nothing in the gateway's log: say what the page showed and reported, then
    // load it once more, as a person would, so one stuck load does not lose the whole run.
    const shown = (await page.locator('body').innerText().catch(() => '')).slice(0, 300)
    console.error(
      `[screens] the login page showed no form in 30 s; it showed ${JSON.stringify(shown)}; ` +
        `${problems.length ? problems.join('; ') : 'no page or console errors'}. Loading it again.`,
    )
    await page.reload()
    await heading.waitFor()
  } finally {
    page.off('pageerror', onError)
    page.off('console', onConsole)
  }
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('checkbox', { name: 'Keep me signed in' }).check()
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  try {
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 })
  } catch {
    throw new Error(`the browser login of ${email} did not leave /login`)
  }
}

/**
 * Until the page has settled: the network quiet, no skeleton, no "Loading...", nothing
 * aria-busy, the fonts and the pictures in view loaded. A page that never settles is taken
 * as it is and reported.
 */
async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
  const settled = await page
    .waitForFunction(
      () => {
        const shown = (element) => element.getClientRects().length > 0
        const inView = (element) => {
          const box = element.getBoundingClientRect()
          return box.bottom > 0 && box.top < innerHeight && box.width > 0
        }
        // .page-loading: the app's "Loading..." and "Opening the conversation..." placeholders,
        // which a page shows until its data (or a redirect, as /messages/request/:id does)
        // arrives; on a busy machine that is seconds after the network first goes quiet.
        const busy = [
          ...document.querySelectorAll('[class*="skeleton"], [aria-busy="true"], .page-loading'),
        ].some(shown)
        const loading = [...document.querySelectorAll('[role="status"], p, button')].some(
          (element) => shown(element) && element.textContent?.trim() === 'Loading...',
        )
        const pictures = [...document.images].filter(inView).every((image) => image.complete)
        return !busy && !loading && pictures && document.fonts.status === 'loaded'
      },
      undefined,
      { timeout: 30_000, polling: 100 },
    )
    .then(() => true)
    .catch(() => false)
  await page.evaluate(() => document.fonts.ready)
  // What came after the first paint (a redirect, a late answer) gets its own quiet moment.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined)
  return settled
}

/** What the page shows that a reviewer must not see by accident: the error screen or the 404. */
function problemsOf(page) {
  return page.evaluate(() => {
    const headings = [...document.querySelectorAll('h1')].map((h) => h.textContent?.trim() ?? '')
    return {
      heading: headings[0] ?? '',
      // The app itself, not the gateway's "not built yet" page (a rebuild under way).
      appMissing: !document.querySelector('#root')?.childElementCount,
      // How far the page scrolls sideways (0 when it fits the screen): tried, then undone.
      sideways: (() => {
        const [x, y] = [scrollX, scrollY]
        scrollTo(100_000, y)
        const reach = scrollX
        scrollTo(x, y)
        return reach
      })(),
      errorScreen: headings.includes('Something went wrong'),
      notFound: headings.includes('Page not found'),
    }
  })
}

async function shoot(page, file, mobile) {
  // The visible screen only, the files stay small; at desktop width the whole page when it is
  // barely taller. On a phone always the screen: a full-page capture would move the fixed
  // bottom navigation to the middle of the picture.
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  const fullPage = !mobile && height <= page.viewportSize().height * 1.5
  await page.screenshot({ path: file, fullPage, animations: 'disabled', caret: 'hide' })
}

function readme(shots) {
  const byRoute = new Map()
  for (const shot of shots) {
    if (!byRoute.has(shot.pattern)) byRoute.set(shot.pattern, [])
    byRoute.get(shot.pattern).push(shot)
  }
  const cell = (list, state, width) => {
    const shot = list.find((s) => s.state === state && s.width === width)
    if (!shot) return '—'
    const note = shot.redirectedTo
      ? ` (shows ${shot.redirectedTo})`
      : shot.as === 'admin'
        ? ' (administrator)'
        : ''
    return `[${width} px](${shot.file})${note}`
  }
  const rows = [...byRoute.entries()].map(
    ([pattern, list]) =>
      `| \`${pattern}\` | ${STATES.flatMap((state) => WIDTHS.map(({ width }) => cell(list, state, width))).join(' | ')} |`,
  )
  return [
    '# Screens of every route',
    '',
    'Made by `node scripts/screens.mjs` against `bash scripts/start.sh` (the demo data); do not',
    'edit by hand. How to regenerate: docs/web-app.md, "Screenshots of every route".',
    '',
    '- Each route at 1280 × 800 and at 375 × 812 (a phone), signed out and signed in as the demo',
    '  user; a page the demo user may not open (moderation) is shown signed in as the demo',
    '  administrator, marked "(administrator)".',
    '- A route that sends the visitor elsewhere (a page behind the sign-in, /verify without an',
    '  email) shows where they land, marked "(shows /login)", and its file name ends in',
    '  `-redirected-to-<that route>`.',
    '- The visible screen only; at 1280 px the whole page when it is at most half a screen taller.',
    `- Routes with parameters use the demo user's first conversation.`,
    '',
    `| route | ${STATES.flatMap((state) => WIDTHS.map(({ width }) => `${state} ${width}`)).join(' | ')} |`,
    `| --- | ${STATES.flatMap(() => WIDTHS.map(() => '---')).join(' | ')} |`,
    ...rows,
    '',
    `${shots.length} screenshots of ${byRoute.size} routes.`,
    '',
  ].join('\n')
}

/**
 * Takes every screenshot into `out` (its width folders are emptied first) and writes
 * README.md and screens.json there; answers the list of shots, each with what the page
 * showed (final path, first heading, error screen or 404, settled or not).
 */
export async function takeScreens({
  base = 'http://127.0.0.1:8080',
  out = join(root, 'docs/screens'),
  user = { email: 'ava.turner@demo.marketplace.local', password: 'Demo1234!' },
  admin = { email: 'admin@marketplace.local', password: 'Admin1234!' },
  chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium',
} = {}) {
  const routes = await routesOfApp()
  const userSession = await apiLogin(base, user.email, user.password)
  const parameters = await routeParameters(base, userSession)
  for (const { width } of WIDTHS) {
    await rm(join(out, String(width)), { recursive: true, force: true })
    await mkdir(join(out, String(width)), { recursive: true })
  }
  const total = routes.length * WIDTHS.length * STATES.length
  const shots = []
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  })
  try {
    for (const width of WIDTHS) {
      for (const state of STATES) {
        // One browser context per width and identity: one login each, then a reload per route.
        const contexts = {}
        const contextFor = async (who) => {
          if (!contexts[who]) {
            contexts[who] = await newContext(browser, width)
            const credentials = who === 'admin' ? admin : user
            if (who !== 'guest')
              await logIn(contexts[who].page, base, credentials.email, credentials.password)
          }
          return contexts[who].page
        }
        try {
          for (const route of routes) {
            const path = fill(route.pattern, parameters)
            say(`${shots.length + 1}/${total} ${width.width} ${state} ${path}`)
            let as = state === 'signed-in' ? 'user' : 'guest'
            let page = await contextFor(as)
            const visit = async () => {
              // The gateway serves apps/web/dist as it is: during a rebuild it answers "not
              // built yet" for a few seconds, so that page is asked again, not taken.
              for (let attempt = 1; ; attempt += 1) {
                await page.goto(`${base}${path}`)
                const appShown = await page.evaluate(
                  () => !!document.querySelector('#root')?.childElementCount,
                )
                if (appShown || attempt === 12) return settle(page)
                await new Promise((done) => setTimeout(done, 5000))
              }
            }
            let settled = await visit()
            const landed = () => new URL(page.url()).pathname
            // A page only an administrator may open is shown as the administrator sees it.
            if (
              as === 'user' &&
              landed() === '/unauthorized' &&
              route.pattern !== '/unauthorized'
            ) {
              as = 'admin'
              page = await contextFor(as)
              settled = await visit()
            }
            const finalPath = landed()
            // Where a redirect led (a guarded page to /login, /verify without an email to
            // /signup): the screenshot shows that page, and its name says so.
            const landedOn = routeAt(routes, finalPath)
            const redirected = landedOn?.pattern !== route.pattern
            const redirectedTo = redirected ? (landedOn?.pattern ?? finalPath) : null
            const suffix = redirected
              ? `-redirected-to-${landedOn?.name ?? 'elsewhere'}`
              : as === 'admin'
                ? '-as-admin'
                : ''
            const file = `${width.width}/${state}-${route.name}${suffix}.png`
            await shoot(page, join(out, file), width.mobile)
            const shown = await problemsOf(page)
            if (!settled) say(`  ${path} did not settle within 30 s: taken as it was`)
            if (shown.errorScreen || shown.notFound || shown.appMissing)
              say(`  ${path} showed "${shown.heading}"`)
            shots.push({
              pattern: route.pattern,
              name: route.name,
              path,
              width: width.width,
              state,
              as,
              file,
              finalPath,
              redirectedTo,
              settled,
              ...shown,
            })
          }
        } finally {
          await Promise.all(Object.values(contexts).map(({ context }) => context.close()))
        }
      }
    }
  } finally {
    await browser.close()
  }
  // Formatted as `pnpm format` would, so formatting the repository leaves it alone.
  const readmeFile = join(out, 'README.md')
  const prettier = await import('prettier')
  const style = (await prettier.resolveConfig(readmeFile)) ?? {}
  await writeFile(
    readmeFile,
    await prettier.format(readme(shots), { ...style, filepath: readmeFile }),
  )
  await writeFile(join(out, 'screens.json'), `${JSON.stringify(shots, null, 2)}\n`)
  return shots
}

// Run as a command (not when imported).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      base: { type: 'string', default: process.env.SCREENS_BASE_URL ?? 'http://127.0.0.1:8080' },
      out: { type: 'string', default: join(root, 'docs/screens') },
      'user-email': { type: 'string', default: 'ava.turner@demo.marketplace.local' },
      'user-password': { type: 'string', default: 'Demo1234!' },
      'admin-email': {
        type: 'string',
        default: process.env.ADMIN_EMAIL ?? 'admin@marketplace.local',
      },
      'admin-password': { type: 'string', default: process.env.ADMIN_PASSWORD ?? 'Admin1234!' },
    },
  })
  const out = resolve(values.out)
  try {
    const shots = await takeScreens({
      base: values.base.replace(/\/$/, ''),
      out,
      user: { email: values['user-email'], password: values['user-password'] },
      admin: { email: values['admin-email'], password: values['admin-password'] },
    })
    const broken = shots.filter((shot) => shot.errorScreen || shot.notFound || shot.appMissing)
    say(
      `${shots.length} screenshots in ${relative(process.cwd(), out) || '.'} (README.md lists them)`,
    )
    if (broken.length > 0) {
      console.error(
        `[screens] ${broken.length} showed the error screen, a 404 or no app: ${broken.map((s) => s.file).join(', ')}`,
      )
      process.exitCode = 1
    }
  } catch (error) {
    console.error(`[screens] ${error instanceof Error ? error.message : error}`)
    process.exitCode = 1
  }
}
