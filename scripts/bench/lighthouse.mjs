#!/usr/bin/env node
// Lighthouse figures of the web app, a benchmark, not a timed test: the home
// route (signed out and signed in), a post's details and a settings page, on Lighthouse's
// mobile (default simulated throttling) and desktop configurations, in Debian's Chromium.
//
// The stack is tests/system's full stack (tests/system/src/web/full-stack.ts, loaded through
// tsx): every service built and started as its own process behind the gateway, which serves
// apps/web/dist, against the servers of infra/local (their addresses from .data/infra.env, so
// MARKETPLACE_PORT_OFFSET is honoured), with own databases and bucket, dropped at the end.
// Reusing it keeps one definition of "the started stack" for the journeys and this script.
//
//   bash infra/local/infra.sh up && pnpm turbo run build
//   node scripts/bench/lighthouse.mjs [--runs 1] [--json out.json] [--only home-out,details]
//
// Timings move with the load of the machine (it is shared); layout shift and bytes do not.
// A post's details is a dialog over the home route, not a page of its own: it is measured as
// Lighthouse's timespan (opening it from the feed: layout shift, blocking time) plus a
// snapshot of the open dialog (accessibility, best practices).
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'

const fromSystemTests = createRequire(join(repoRoot, 'tests', 'system', 'package.json'))
const lighthousePath = fromSystemTests.resolve('lighthouse')
const { navigation, startTimespan, snapshot, desktopConfig } = await import(lighthousePath)
const fromLighthouse = createRequire(lighthousePath)
const chromeLauncher = await import(fromLighthouse.resolve('chrome-launcher'))
const puppeteer = (await import(fromLighthouse.resolve('puppeteer-core'))).default
const tsx = createRequire(join(repoRoot, 'services', 'gateway', 'package.json'))('tsx/cjs/api')
const systemTests = join(repoRoot, 'tests', 'system', 'src')
const { startFullStack } = tsx.require(join(systemTests, 'web', 'full-stack.ts'), import.meta.url)
const { siteClient } = tsx.require(join(systemTests, 'processes.ts'), import.meta.url)

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    json: { type: 'string' },
    only: { type: 'string' },
    // Every Lighthouse report (its JSON) into this directory, to read the LCP element, its
    // breakdown, the critical request chain and the main thread's work.
    'lhr-dir': { type: 'string' },
    // A CPU profile (.cpuprofile, for DevTools) of each signed-in page's load into this
    // directory, the CPU slowed down 4x as Lighthouse's mobile figures assume: which of the
    // app's functions make the blocking time.
    'cpu-profile': { type: 'string' },
    // N plain loads of each signed-in page, traced, reporting the blocking time as
    // Lighthouse's mobile simulation reckons it (each main-thread task after the first paint
    // taken 4x longer, what it lasts beyond 50 ms, summed): many loads, the median, a
    // steadier comparison of two builds than a few Lighthouse runs.
    blocking: { type: 'string' },
    // The browser on a core of its own (the last), the stack's servers, infra/local's and
    // this process on the others (taskset): the phone the figures stand for runs the page,
    // not the servers. Without it, on two cores, the services answering the page's requests
    // take the page's core in the middle of its tasks, which Lighthouse counts as blocking.
    pin: { type: 'boolean', default: false },
    // Closer still to a phone: only the page's renderer processes on the last core, the
    // browser's own processes (browser, GPU, network) with the servers and this process on
    // the others. A watcher moves each new renderer there within 100 ms of its start.
    'pin-page': { type: 'boolean', default: false },
  },
})
const RUNS = Number(args.runs)
const ONLY = args.only ? new Set(args.only.split(',')) : null
const log = (message) => console.log(`[lighthouse] ${message}`)
if (args['lhr-dir']) mkdirSync(args['lhr-dir'], { recursive: true })
/** Keeps the whole report when --lhr-dir is given. */
function keep(lhr, name) {
  if (args['lhr-dir']) writeFileSync(join(args['lhr-dir'], `${name}.json`), JSON.stringify(lhr))
  return lhr
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const FORM_FACTORS = {
  mobile: undefined, // Lighthouse's default: a Moto G Power, 4x CPU, slow 4G (simulated)
  desktop: desktopConfig,
}
const FEED_PAGE = 12

/** A page of posts (the feed's first page full) and a member who owns them. */
async function seed(site) {
  const client = siteClient(site)
  const member = await client.member('Lena', 'Bench')
  for (let i = 0; i < FEED_PAGE; i += 1) {
    const created = await client.call('POST', '/api/jobs', member.token, {
      title: `Bench post ${i + 1}: help with the garden fence and the hedge`,
      where: 'Austin TX',
      displayLocation: true,
      description: 'Two afternoons of work, tools provided. '.repeat(4),
    })
    if (created.status !== 201) throw new Error(`seed post ${i}: ${created.status}`)
  }
  const until = Date.now() + 60_000
  while (Date.now() < until) {
    const feed = await client.call('GET', `/api/jobs?limit=${FEED_PAGE}`)
    if ((feed.body?.jobs?.length ?? 0) >= FEED_PAGE) return member
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error('the seeded posts never reached the feed')
}

function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue
  const score = (id) => {
    const value = lhr.categories[id]?.score
    return value === null || value === undefined ? null : Math.round(value * 100)
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbtMs: audit('total-blocking-time'),
    transferKB:
      audit('total-byte-weight') === undefined ? undefined : audit('total-byte-weight') / 1024,
    // What the LCP waited for: its element, and the session renewals the load made
    // (index.html starts one with the HTML; the app must adopt it, never send a second).
    lcpElement:
      lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node
        ?.selector,
    renewals: lhr.audits['network-requests']?.details?.items?.filter(
      (request) => new URL(request.url).pathname === '/api/auth/refresh',
    ).length,
  }
}

const cpus = Number(execFileSync('nproc', { encoding: 'utf8' }).trim())
const BROWSER_CPU = String(cpus - 1)
const OTHER_CPUS = cpus > 2 ? `0-${cpus - 2}` : '0'

/** A script that starts the browser on its own core; its processes inherit the affinity. */
function browserOnItsCore(chromium) {
  const wrapper = join(tmpdir(), `chromium-on-cpu-${BROWSER_CPU}.sh`)
  writeFileSync(wrapper, `#!/bin/sh\nexec taskset -c ${BROWSER_CPU} ${chromium} "$@"\n`)
  chmodSync(wrapper, 0o755)
  return wrapper
}

/** This process's other descendants (the stack's services), itself and infra/local's servers. */
function pinAllBut(browserPid) {
  const parentOf = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid, ancestor) => {
    for (let at = pid; at > 1; at = parentOf.get(at) ?? 0) if (at === ancestor) return true
    return false
  }
  const pids = [...parentOf.keys()].filter(
    (pid) => descends(pid, process.pid) && !descends(pid, browserPid),
  )
  const pidsDir = join(repoRoot, '.data', 'pids')
  if (existsSync(pidsDir)) {
    for (const file of readdirSync(pidsDir)) {
      const pid = Number(readFileSync(join(pidsDir, file), 'utf8').trim())
      if (pid) pids.push(pid)
    }
  }
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', OTHER_CPUS, String(pid)], { stdio: 'ignore' })
    } catch {
      // ended meanwhile
    }
  }
  log(`pinned: the browser on CPU ${BROWSER_CPU}, ${pids.length} other processes on ${OTHER_CPUS}`)
}

/** Everything of the run on the other cores, then each renderer of the browser on its own. */
function pinPageRenderers(browserPid) {
  pinAllBut(-1) // every descendant of this process, the browser's too, and infra/local's
  const moved = new Set()
  const watch = () => {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || moved.has(entry)) continue
      let cmdline
      try {
        cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      } catch {
        continue
      }
      if (!cmdline.includes('--type=renderer') || !descendsFrom(Number(entry), browserPid)) continue
      try {
        execFileSync('taskset', ['-a', '-p', '-c', BROWSER_CPU, entry], { stdio: 'ignore' })
        moved.add(entry)
      } catch {
        // ended meanwhile
      }
    }
  }
  watch()
  const timer = setInterval(watch, 100)
  timer.unref()
  log(`pinned: the page's renderers on CPU ${BROWSER_CPU}, everything else on ${OTHER_CPUS}`)
  return () => clearInterval(timer)
}

/** Whether `pid` is `ancestor` or one of its descendants (by /proc's parent ids). */
function descendsFrom(pid, ancestor) {
  for (let at = pid, hops = 0; at > 1 && hops < 64; hops += 1) {
    if (at === ancestor) return true
    try {
      const stat = readFileSync(`/proc/${at}/stat`, 'utf8')
      at = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    } catch {
      return false
    }
  }
  return false
}

/** infra/local's servers back on every core. */
function unpinInfra() {
  const pidsDir = join(repoRoot, '.data', 'pids')
  if (!existsSync(pidsDir)) return
  for (const file of readdirSync(pidsDir)) {
    const pid = readFileSync(join(pidsDir, file), 'utf8').trim()
    try {
      execFileSync('taskset', ['-a', '-p', '-c', `0-${cpus - 1}`, pid], { stdio: 'ignore' })
    } catch {
      // not running
    }
  }
}

/** Loads each signed-in page with the CPU 4x slower and V8's sampling profiler on. */
async function profileLoads(page, site, dir) {
  mkdirSync(dir, { recursive: true })
  for (const [name, path] of [
    ['home-in', '/'],
    ['settings', '/settings-account'],
  ]) {
    const session = await page.createCDPSession()
    await session.send('Network.clearBrowserCache')
    await session.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await session.send('Profiler.enable')
    await session.send('Profiler.setSamplingInterval', { interval: 200 })
    await session.send('Profiler.start')
    await page.goto(`${site}${path}`, { waitUntil: 'networkidle0' })
    const { profile } = await session.send('Profiler.stop')
    await session.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    await session.detach()
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile))
    log(`CPU profile of ${path}: ${join(dir, `${name}.cpuprofile`)}`)
  }
}

/** Each signed-in page loaded `runs` times: its blocking time at Lighthouse's 4x slowdown. */
async function observeBlocking(page, site, runs) {
  for (const [name, path] of [
    ['home-in', '/'],
    ['settings', '/settings-account'],
  ]) {
    const rows = []
    for (let i = 0; i < runs; i += 1) {
      const session = await page.createCDPSession()
      await session.send('Network.clearBrowserCache')
      await page.tracing.start({
        categories: [
          'toplevel',
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'loading',
          'blink.user_timing',
        ],
      })
      await page.goto(`${site}${path}`, { waitUntil: 'networkidle0' })
      const trace = JSON.parse(Buffer.from(await page.tracing.stop()).toString())
      await session.detach()
      rows.push(blockingOf(trace.traceEvents))
    }
    const sorted = (key) => rows.map((row) => row[key]).sort((a, b) => a - b)
    const median = (key) => sorted(key)[Math.floor(runs / 2)]
    log(
      `${name}: blocking ms at 4x ${sorted('blockingMs').join(', ')} (median ${median('blockingMs')}); ` +
        `long tasks ms ${rows.map((row) => row.longTasks.join('+')).join(' | ')}`,
    )
  }
}

/**
 * Lighthouse's simulated mobile blocking time, roughly: the main thread's tasks after the
 * first contentful paint, each 4x (its CPU slowdown), beyond 50 ms, summed; and those tasks.
 */
function blockingOf(events) {
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'),
  )
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid)
  const tasks = events.filter(
    (e) =>
      e.name === 'RunTask' &&
      e.pid === navigation.pid &&
      e.tid === navigation.tid &&
      e.ts >= (fcp?.ts ?? navigation.ts),
  )
  // The task's thread time (tdur) where the trace has it, not its wall time: on a shared
  // machine other processes take the core in the middle of a task, which a phone's own
  // slowness (what the 4x stands for) does not; on an idle machine the two are the same.
  const longTasks = tasks
    .map((e) => Math.round((4 * (e.tdur ?? e.dur)) / 1000))
    .filter((ms) => ms > 50)
  // The same from wall times: what Lighthouse's simulation starts from.
  const wallMs = tasks
    .map((e) => (4 * e.dur) / 1000)
    .reduce((sum, ms) => sum + Math.max(0, ms - 50), 0)
  return {
    blockingMs: longTasks.reduce((sum, ms) => sum + ms - 50, 0),
    wallMs: Math.round(wallMs),
    longTasks,
  }
}

async function main() {
  const chromium = process.env.CHROMIUM_PATH || process.env.CHROMIUM || '/usr/bin/chromium'
  const chrome = await chromeLauncher.launch({
    chromePath: args.pin ? browserOnItsCore(chromium) : chromium,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'],
  })
  let stack
  let unpinPage = null
  const results = []
  try {
    log('starting the full stack (built services, infra/local)...')
    stack = await startFullStack('lighthouse')
    if (args.pin) pinAllBut(chrome.pid)
    if (args['pin-page']) unpinPage = pinPageRenderers(chrome.pid)
    const member = await seed(stack.site)
    const browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    })
    const page = await browser.newPage()
    // One visit first: Lighthouse's first navigation in a new page sometimes finds no
    // navigation start in its trace (NO_NAVSTART); the servers' first answers are warm too.
    await page.goto(`${stack.site}/`, { waitUntil: 'networkidle0' })

    const measure = async (name, formFactor, run) => {
      if (ONLY && !ONLY.has(name)) return
      for (let i = 0; i < RUNS; i += 1) {
        const session = await page.createCDPSession()
        await session.send('Network.clearBrowserCache')
        await session.detach()
        const row = {
          name,
          formFactor,
          run: i + 1,
          ...(await run(FORM_FACTORS[formFactor], `${name}-${formFactor}-${i + 1}`)),
        }
        results.push(row)
        log(JSON.stringify(row))
      }
    }
    const navigate = async (config, label, path, signedIn) => {
      const flags = { logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: signedIn }
      // With --lhr-dir, the trace holds the JavaScript's samples too (which function ran).
      if (args['lhr-dir']) flags.additionalTraceCategories = 'disabled-by-default-v8.cpu_profiler'
      const result = await navigation(page, `${stack.site}${path}`, { config, flags })
      if (args['lhr-dir'] && result.artifacts?.Trace) {
        // The trace too, to read the main thread's tasks (chrome://tracing, DevTools).
        writeFileSync(
          join(args['lhr-dir'], `${label}.trace.json`),
          JSON.stringify(result.artifacts.Trace),
        )
      }
      // The run's own trace, reckoned both ways (docs/benchmarks-log.md, "Seventh pass"): the
      // blocking time from its tasks' wall times, as Lighthouse starts from, and from the
      // CPU the page's main thread really got (a shared machine interrupts its tasks).
      const events = result.artifacts?.Trace?.traceEvents
      const own = events ? blockingOf(events) : null
      return {
        ...figures(keep(result.lhr, label)),
        ...(own ? { tbtFromWallMs: own.wallMs, tbtFromCpuMs: own.blockingMs } : {}),
      }
    }
    const openDetails = async (config, label) => {
      await page.goto(`${stack.site}/`, { waitUntil: 'networkidle0' })
      const flags = { logLevel: 'error', onlyCategories: CATEGORIES }
      const timespan = await startTimespan(page, { config, flags })
      // The first card's "Details" (the DOM's own click: the card may still be settling).
      await page.waitForSelector('article .card-actions button')
      await page.evaluate(() => document.querySelector('article .card-actions button').click())
      await page.waitForSelector('[role="dialog"]')
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const opened = figures(keep((await timespan.endTimespan()).lhr, `${label}-opening`))
      const open = figures(keep((await snapshot(page, { config, flags })).lhr, `${label}-open`))
      return {
        cls: opened.cls,
        tbtMs: opened.tbtMs,
        accessibility: open.accessibility,
        bestPractices: open.bestPractices,
      }
    }

    for (const formFactor of Object.keys(FORM_FACTORS)) {
      await measure('home-out', formFactor, (config, label) => navigate(config, label, '/', false))
      await measure('details', formFactor, openDetails)
    }

    // Signed in from here on: "Keep me signed in" sets the flag the app renews from, and no
    // storage reset between runs (the cache is still cleared before each run).
    await page.goto(`${stack.site}/login`, { waitUntil: 'networkidle0' })
    await page.locator('::-p-aria(Email)').fill(member.email)
    await page.locator('::-p-aria(Password)').fill(member.password)
    await page.locator('::-p-aria(Keep me signed in)').click()
    await page.locator('::-p-aria([name="Log in"][role="button"])').click()
    await page.waitForFunction(() => localStorage.getItem('persist') === 'true')
    await page.waitForFunction(() => location.pathname === '/')
    if (args['cpu-profile']) await profileLoads(page, stack.site, args['cpu-profile'])
    if (args.blocking) await observeBlocking(page, stack.site, Number(args.blocking))
    for (const formFactor of Object.keys(FORM_FACTORS)) {
      await measure('home-in', formFactor, (config, label) => navigate(config, label, '/', true))
      await measure('settings', formFactor, (config, label) =>
        navigate(config, label, '/settings-account', true),
      )
    }
    await browser.disconnect()
  } finally {
    await stack?.stop()
    chrome.kill()
    unpinPage?.()
    if (args.pin || args['pin-page']) unpinInfra()
  }

  const cell = (value, digits = 0) =>
    value === undefined || value === null ? '' : Number(value).toFixed(digits)
  if (RUNS > 1) console.log(`\nmedians of ${RUNS} runs:`)
  console.log(
    '\n| page | form factor | performance | FCP ms | LCP ms | CLS | TBT ms | KB sent | accessibility | best practices | SEO |',
  )
  console.log('| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
  // With several runs, one row per page and form factor: each figure's median over the runs
  // (Lighthouse's own advice for its variance), so a run the machine's load spoiled counts less.
  const median = (values) => {
    const sorted = values.filter((v) => v !== undefined && v !== null).sort((a, b) => a - b)
    return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : undefined
  }
  const rows =
    RUNS > 1
      ? [...new Set(results.map((r) => `${r.name}|${r.formFactor}`))].map((key) => {
          const runs = results.filter((r) => `${r.name}|${r.formFactor}` === key)
          const row = { ...runs[0] }
          for (const figure of Object.keys(row))
            if (typeof row[figure] === 'number') row[figure] = median(runs.map((r) => r[figure]))
          return row
        })
      : results
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.formFactor} | ${cell(r.performance)} | ${cell(r.fcpMs)} | ${cell(r.lcpMs)} | ${cell(r.cls, 3)} | ${cell(r.tbtMs)} | ${cell(r.transferKB, 1)} | ${cell(r.accessibility)} | ${cell(r.bestPractices)} | ${cell(r.seo)} |`,
    )
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2))
}

await main()
