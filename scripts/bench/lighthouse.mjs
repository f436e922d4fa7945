#!/usr/bin/env node
// Lighthouse figures of the web app (issue 22 §5), a benchmark, not a timed test: the home
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
import { createRequire } from 'node:module'
import { mkdirSync, writeFileSync } from 'node:fs'
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
    // What the LCP waited for (issue 22): its element, and the session renewals the load made
    // (index.html starts one with the HTML; the app must adopt it, never send a second).
    lcpElement:
      lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node
        ?.selector,
    renewals: lhr.audits['network-requests']?.details?.items?.filter(
      (request) => new URL(request.url).pathname === '/api/auth/refresh',
    ).length,
  }
}

async function main() {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || process.env.CHROMIUM || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'],
  })
  let stack
  const results = []
  try {
    log('starting the full stack (built services, infra/local)...')
    stack = await startFullStack('lighthouse')
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
      const result = await navigation(page, `${stack.site}${path}`, { config, flags })
      return figures(keep(result.lhr, label))
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
