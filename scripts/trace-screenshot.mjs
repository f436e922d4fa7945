#!/usr/bin/env node
// A picture of one user action's trace as the trace viewer shows it: a demo worker requests a
// post through the gateway, and Zipkin's web UI draws the trace that request started (gateway,
// jobs and its database commands, the outbox's publish, then notifications storing the notice,
// pushing it live and mailing it). docs/operations.md ("Tracing") shows the result.
//
// Needs a stack that traces into Zipkin:
//   TRACING=1 TRACING_VIEWER=zipkin bash scripts/start.sh
//   node scripts/trace-screenshot.mjs [--base http://127.0.0.1:8080] [--zipkin http://127.0.0.1:9411]
//     [--out docs/screens/trace-request-created.png] [--email ava.turner@demo.marketplace.local]
//     [--password Demo1234!]
// The request carries a `traceparent` header the script makes, as any W3C Trace Context client
// may, so it knows the trace's id without searching. It waits until the trace holds spans of
// the three services, then opens the trace's page in Chromium and saves the screenshot.
// Exits 1 (and saves nothing) when the trace does not come together within 60 s.
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// The browser tests own playwright-core (and the system's Chromium, scripts/lib/common.sh).
const { chromium } = createRequire(join(root, 'tests/system/package.json'))('playwright-core')

const { values: options } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:8080' },
    zipkin: { type: 'string', default: process.env.ZIPKIN_URL ?? 'http://127.0.0.1:9411' },
    out: { type: 'string', default: join(root, 'docs/screens/trace-request-created.png') },
    email: { type: 'string', default: 'ava.turner@demo.marketplace.local' },
    password: { type: 'string', default: 'Demo1234!' },
  },
})
const say = (message) => console.log(`[trace-screenshot] ${message}`)
/** The services whose spans make the trace worth showing. */
const EXPECTED_SERVICES = ['gateway', 'jobs', 'notifications']

async function api(method, path, { token, body, headers = {} } = {}) {
  const response = await fetch(`${options.base}${path}`, {
    method,
    headers: {
      origin: options.base,
      ...headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

/** Zipkin's spans of a trace (an empty list until the first arrive). */
async function spansOf(traceId) {
  const response = await fetch(`${options.zipkin}/api/v2/trace/${traceId}`)
  if (response.status === 404) return []
  if (!response.ok) throw new Error(`Zipkin answered ${response.status} for trace ${traceId}`)
  return response.json()
}

const login = await api('POST', '/api/auth/direct-login', {
  body: { email: options.email, password: options.password },
})
if (login.status !== 200) throw new Error(`could not log in ${options.email}: ${login.status}`)
const token = login.body.accessToken
const userId = login.body.user._id

// A post of someone else that this worker has not requested yet: a new request is the action.
const sent = await api('GET', `/api/jobs/user/${userId}/sent-requests`, { token })
const requested = new Set((sent.body ?? []).map((entry) => entry.post?._id ?? entry.postId))
const feed = await api('GET', '/api/jobs?limit=50', { token })
const post = feed.body?.jobs?.find(
  (job) => (job.userID ?? job.userId) !== userId && !requested.has(job._id),
)
if (!post) throw new Error('no post of someone else left to request in the first 50 of the feed')

const traceId = randomBytes(16).toString('hex')
const answer = await api('POST', '/api/jobs/requests', {
  token,
  body: { postID: post._id },
  headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
})
if (answer.status !== 201) throw new Error(`the request answered ${answer.status}`)
say(`requested "${post.title}"; trace ${traceId}`)

// Spans leave each process in batches every 2 s: wait until every expected service has sent
// some, then one more batch period so the late ones (the mail) are in the picture too.
let spans = []
const deadline = Date.now() + 60_000
for (;;) {
  spans = await spansOf(traceId)
  const services = new Set(spans.map((span) => span.localEndpoint?.serviceName))
  if (EXPECTED_SERVICES.every((name) => services.has(name))) break
  if (Date.now() > deadline) {
    say(`after 60 s the trace has spans of: ${[...services].join(', ') || 'nothing'}`)
    process.exit(1)
  }
  await new Promise((done) => setTimeout(done, 1000))
}
await new Promise((done) => setTimeout(done, 5000))
spans = await spansOf(traceId)
const perService = Object.entries(
  spans.reduce((counts, span) => {
    const name = span.localEndpoint?.serviceName ?? '?'
    counts[name] = (counts[name] ?? 0) + 1
    return counts
  }, {}),
)
say(`${spans.length} spans: ${perService.map(([name, count]) => `${name} ${count}`).join(', ')}`)

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
})
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
  await page.goto(`${options.zipkin}/zipkin/traces/${traceId}`)
  // The UI lists the trace's spans by name once it has loaded them.
  await page.getByText('POST /api/jobs/requests').first().waitFor({ timeout: 30_000 })
  await page.waitForLoadState('networkidle')
  const out = resolve(options.out)
  await mkdir(dirname(out), { recursive: true })
  await page.screenshot({ path: out, fullPage: true })
  say(`saved ${out}`)
} finally {
  await browser.close()
}
