#!/usr/bin/env node
// Lighthouse mobile figures of a RUNNING stack (scripts/start.sh's, with its demo data): the
// home route signed out, the home route signed in and a settings page, each run N times
// (3 by default) in Debian's Chromium, Lighthouse's default mobile settings (a Moto G Power,
// 4x CPU, slow 4G, simulated), no CPU pinning. Prints, per page, the median of the score,
// FCP, LCP, CLS and total blocking time, and of what the main thread did (script evaluation,
// all its work, from Lighthouse's "main-thread work breakdown"), with the load average
// before and after: on a shared machine the score swings with the neighbours' load, the
// main thread's work far less.
//
//   MARKETPLACE_PORT_OFFSET=0 bash scripts/start.sh
//   node scripts/bench/lighthouse-mobile.mjs [--base http://127.0.0.1:8080] [--runs 3]
//     [--email ava.turner@demo.marketplace.local] [--password Demo1234!] [--json out.json]
//     [--lhr-dir dir] [--only home-out,home-in,settings]
//     [--compare http://127.0.0.1:8080,http://127.0.0.1:8090]
//
// --compare measures two or more gateways (a build before and after a change, each served by
// a gateway of its own in front of the same services) in one run: each page's runs alternate
// between them, so the machine's load falls on both alike, and the medians come per gateway.
// One sign-in per page serves every gateway (the cookies belong to the host, not the port), so
// a comparison stays within the login rate limit (30 per address per 15 minutes).
//
// The base address follows MARKETPLACE_PORT_OFFSET as start.sh's gateway does (8080 + offset).
// Signed in: the demo user logs in through the API with "Keep me signed in" (persist: true);
// its refresh and XSRF cookies go into the browser, and the page's storage gets the persist
// flag the app renews from (as a login in the app leaves them). Lighthouse then runs without
// its storage reset, so each load renews the session as a returning user's would; the browser's
// cache is still emptied before each run. (scripts/bench/lighthouse.mjs starts a stack of its
// own and measures desktop and a post's details too.)
import { createRequire } from 'node:module'
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './infra-env.mjs'

const offset = Number(process.env.MARKETPLACE_PORT_OFFSET ?? 0)
const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: `http://127.0.0.1:${8080 + offset}` },
    runs: { type: 'string', default: '3' },
    email: { type: 'string', default: 'ava.turner@demo.marketplace.local' },
    password: { type: 'string', default: 'Demo1234!' },
    json: { type: 'string' },
    'lhr-dir': { type: 'string' },
    only: { type: 'string' },
    compare: { type: 'string' },
  },
})
const RUNS = Number(args.runs)
const BASE = args.base.replace(/\/$/, '')
/** The gateways measured: --compare's, or the one --base names. */
const BASES = (args.compare ? args.compare.split(',') : [BASE]).map((base) =>
  base.trim().replace(/\/$/, ''),
)
const ONLY = args.only ? new Set(args.only.split(',')) : null
const log = (message) => console.log(`[lighthouse-mobile] ${message}`)

const fromSystemTests = createRequire(join(repoRoot, 'tests', 'system', 'package.json'))
const lighthousePath = fromSystemTests.resolve('lighthouse')
const { navigation } = await import(lighthousePath)
const fromLighthouse = createRequire(lighthousePath)
const chromeLauncher = await import(fromLighthouse.resolve('chrome-launcher'))
const puppeteer = (await import(fromLighthouse.resolve('puppeteer-core'))).default

const PAGES = [
  { name: 'home-out', path: '/', signedIn: false },
  { name: 'home-in', path: '/', signedIn: true },
  { name: 'settings', path: '/settings-account', signedIn: true },
].filter((page) => !ONLY || ONLY.has(page.name))

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

/** The demo user's session cookies, from a login through the gateway. */
async function signIn() {
  let response
  // Six signed-in runs log in six times within a minute or two: past the login rate limit,
  // the gateway answers 429 with Retry-After, which is waited for, as a person would.
  for (let attempt = 1; ; attempt += 1) {
    response = await fetch(`${BASES[0]}/api/auth/direct-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: args.email, password: args.password, persist: true }),
    })
    if (response.status !== 429 || attempt === 5) break
    const seconds = Number(response.headers.get('retry-after')) || 5
    await new Promise((resolve) => setTimeout(resolve, (seconds + 1) * 1000))
  }
  if (response.status !== 200) {
    throw new Error(`login as ${args.email}: ${response.status} ${await response.text()}`)
  }
  const host = new URL(BASES[0]).hostname
  return response.headers.getSetCookie().map((line) => {
    const [pair] = line.split(';')
    const at = pair.indexOf('=')
    return {
      name: pair.slice(0, at).trim(),
      value: pair.slice(at + 1).trim(),
      domain: host,
      path: '/',
      httpOnly: /;\s*httponly/i.test(line),
      sameSite: 'Strict',
    }
  })
}

/** Milliseconds of each group of main-thread work (Lighthouse's breakdown), by group id. */
function breakdown(lhr) {
  const items = lhr.audits['mainthread-work-breakdown']?.details?.items ?? []
  const of = (group) => items.find((item) => item.group === group)?.duration
  return {
    scriptEvaluationMs: of('scriptEvaluation'),
    scriptParseMs: of('scriptParseCompile'),
    styleLayoutMs: of('styleLayout'),
    mainThreadMs: lhr.audits['mainthread-work-breakdown']?.numericValue,
    // The three URLs whose tasks cost the most CPU (Lighthouse's "JavaScript execution time":
    // script evaluation and parse, and all other work of the tasks it attributes to them).
    topUrls: [...(lhr.audits['bootup-time']?.details?.items ?? [])]
      .sort((a, b) => b.total - a.total)
      .slice(0, 3)
      .map((item) => `${item.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(item.total)}`)
      .join(', '),
  }
}

/**
 * From the run's own trace, the CPU the page's main thread really got (each task's thread
 * time, not its wall time: on a shared machine other processes take the core in the middle
 * of a task, which a phone's own slowness does not): all of it from navigation to the end of
 * the trace, and the blocking time Lighthouse's 4x slowdown makes of it (each task after the
 * first contentful paint taken 4x, what it lasts beyond 50 ms, summed), with the longest task.
 */
function cpuOf(events) {
  if (!events) return {}
  const start = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'),
  )
  if (!start) return {}
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === start.pid)
  const tasks = events.filter(
    (e) =>
      e.name === 'RunTask' &&
      e.ph === 'X' &&
      e.pid === start.pid &&
      e.tid === start.tid &&
      e.ts >= start.ts,
  )
  const cpu = (e) => (e.tdur ?? e.dur) / 1000
  const after = tasks.filter((e) => e.ts >= (fcp?.ts ?? start.ts))
  return {
    cpuMs: Math.round(tasks.reduce((sum, e) => sum + cpu(e), 0)),
    cpuBlockingMs: Math.round(after.reduce((sum, e) => sum + Math.max(0, 4 * cpu(e) - 50), 0)),
    longestTaskMs: Math.round(Math.max(0, ...after.map(cpu))),
  }
}

function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue
  const score = lhr.categories.performance?.score
  return {
    performance: score === null || score === undefined ? null : Math.round(score * 100),
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbtMs: audit('total-blocking-time'),
    ...breakdown(lhr),
  }
}

const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : undefined
}

async function main() {
  if (args['lhr-dir']) mkdirSync(args['lhr-dir'], { recursive: true })
  for (const base of BASES) {
    const ready = await fetch(`${base}/readyz`).catch(() => null)
    if (!ready?.ok) throw new Error(`${base}/readyz does not answer: start the stack first`)
  }
  const loadBefore = load()
  log(
    `${BASES.join(' and ')}, ${RUNS} runs of ${PAGES.map((p) => p.name).join(', ')}; load average ${loadBefore}`,
  )

  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'],
  })
  const results = []
  try {
    const browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    })
    const page = await browser.newPage()
    // One visit first: Lighthouse's first navigation in a new page sometimes finds no
    // navigation start in its trace (NO_NAVSTART); the servers' first answers are warm too.
    for (const base of BASES) await page.goto(`${base}/`, { waitUntil: 'networkidle0' })

    for (const target of PAGES) {
      if (target.signedIn) {
        // A fresh session for each page's runs: the cookies, then the persist flag (kept per
        // origin, so once per gateway).
        const cookies = await signIn()
        if (browser.setCookie) await browser.setCookie(...cookies)
        else await page.setCookie(...cookies)
        for (const base of BASES) {
          await page.goto(`${base}/about`, { waitUntil: 'networkidle0' })
          await page.evaluate(() => localStorage.setItem('persist', 'true'))
        }
      }
      for (let run = 1; run <= RUNS; run += 1)
        for (const base of BASES) {
          const session = await page.createCDPSession()
          await session.send('Network.clearBrowserCache')
          await session.detach()
          const flags = { logLevel: 'error', onlyCategories: ['performance'] }
          if (target.signedIn) flags.disableStorageReset = true
          const result = await navigation(page, `${base}${target.path}`, { flags })
          const gateway = BASES.length > 1 ? base : undefined
          const label = `${target.name}${gateway ? `-${new URL(base).port}` : ''}-${run}`
          if (args['lhr-dir']) {
            writeFileSync(join(args['lhr-dir'], `${label}.json`), JSON.stringify(result.lhr))
            // The trace too: the main thread's tasks one by one (DevTools' performance panel).
            const trace = result.artifacts?.Trace
            if (trace)
              writeFileSync(join(args['lhr-dir'], `${label}.trace.json`), JSON.stringify(trace))
          }
          const row = {
            page: target.name,
            ...(gateway ? { gateway } : {}),
            run,
            load: load(),
            ...figures(result.lhr),
            ...cpuOf(result.artifacts?.Trace?.traceEvents),
          }
          if (target.signedIn && result.lhr.finalDisplayedUrl.includes('/login')) {
            throw new Error(`${label}: the page went to /login: the session was not restored`)
          }
          // A run Lighthouse could not finish (on a loaded machine: no paint before its
          // timeout) has no figures: said, and left out of the medians rather than counted as 0.
          if (result.lhr.runtimeError) {
            log(`${label}: no figures (${result.lhr.runtimeError.code}), left out of the medians`)
            continue
          }
          results.push(row)
          log(JSON.stringify(row))
        }
    }
    await browser.disconnect()
  } finally {
    chrome.kill()
  }

  const cell = (value, digits = 0) =>
    value === undefined || value === null ? '' : Number(value).toFixed(digits)
  console.log(
    `\nmedians of ${RUNS} runs each (fewer where a run failed), load average ${loadBefore} before, ${load()} after:\n`,
  )
  console.log(
    '| page | performance | FCP ms | LCP ms | CLS | TBT ms | script evaluation ms | main-thread work ms | CPU ms (1x) | TBT from CPU ms | longest task ms (1x) |',
  )
  console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
  for (const target of PAGES) {
    for (const base of BASES) {
      const runs = results.filter(
        (row) => row.page === target.name && (BASES.length === 1 || row.gateway === base),
      )
      const m = (key) => median(runs.map((row) => row[key]))
      const name = BASES.length > 1 ? `${target.name} (${base})` : target.name
      console.log(
        `| ${name} | ${cell(m('performance'))} | ${cell(m('fcpMs'))} | ${cell(m('lcpMs'))} | ${cell(m('cls'), 3)} | ${cell(m('tbtMs'))} | ${cell(m('scriptEvaluationMs'))} | ${cell(m('mainThreadMs'))} | ${cell(m('cpuMs'))} | ${cell(m('cpuBlockingMs'))} | ${cell(m('longestTaskMs'))} |`,
      )
    }
  }
  if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2))
}

await main()
