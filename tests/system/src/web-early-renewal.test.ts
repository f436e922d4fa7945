import type { Browser, Page } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import { expectGreeting, expectPath, expectVisible, logInThroughForm } from './web/journey-helpers'

// Signed-in pages on a phone: with "Keep me signed in", index.html's inline script
// starts the session's renewal with the HTML (and on / the feed's first page with its token);
// the app adopts both. In Debian's Chromium, under the gateway's real content security policy
// (this context does not bypass it, unlike the journeys', which inject axe-core): a load
// renews exactly once, signed in, and asks for the feed once.

const POST_TITLE = 'Early renewal: paint the garden shed'

/** Each renewal and each first-feed-page request the page makes, in order. */
function watchRequests(page: Page) {
  const renewals: string[] = []
  const feeds: Array<string | undefined> = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/api/auth/refresh') renewals.push(request.method())
    if (url.pathname === '/api/jobs' && url.searchParams.get('page') === '1') {
      feeds.push(request.headers().authorization)
    }
  })
  return { renewals, feeds }
}

describe('a page load with "Keep me signed in"', () => {
  let stack: FullStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startFullStack('early-renewal')
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it("renews once, from the page's own early request, and shows the user's feed and settings", async () => {
    const api = siteClient(stack.site)
    const member = await api.member('Rae', 'Early')
    const created = await api.call('POST', '/api/jobs', member.token, {
      title: POST_TITLE,
      where: 'Austin TX',
      displayLocation: true,
      description: 'One afternoon, paint and brushes provided.',
    })
    expect(created.status).toBe(201)
    await waitFor(
      async () => {
        const feed = await api.call('GET', '/api/jobs?page=1&sort=desc')
        return (feed.body?.jobs ?? []).some((post: { title: string }) => post.title === POST_TITLE)
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the post in the feed' },
    )

    const context = await browser.newContext({ viewport: DESKTOP })
    const page = await context.newPage()
    page.setDefaultTimeout(20_000)
    const refused: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
    })
    try {
      await page.goto(`${stack.site}/login`)
      await logInThroughForm(page, member.email, member.password, { keepSignedIn: true })
      await expectPath(page, '/')
      // The feed of this first visit (after the form) is on screen before the next load.
      await expectVisible(page.getByRole('article', { name: POST_TITLE }), 'the post in the feed')

      const home = watchRequests(page)
      await page.goto(`${stack.site}/`)
      await expectGreeting(page, 'desktop', 'Rae')
      await expectVisible(page.getByRole('article', { name: POST_TITLE }), 'the post in the feed')
      expect(home.renewals).toEqual(['POST'])
      // index.html's script asked, and the app took its answer (lib/early-session).
      const early = await page.evaluate(() => {
        const held = (globalThis as { __earlySession?: object }).__earlySession
        return held ? { renewalLeft: 'renewal' in held } : null
      })
      expect(early).toEqual({ renewalLeft: false })
      // The feed's first page once, with the renewed session's token.
      expect(home.feeds).toHaveLength(1)
      expect(home.feeds[0]).toMatch(/^Bearer /)

      const settings = watchRequests(page)
      await page.goto(`${stack.site}/settings-account`)
      await expectVisible(
        page.getByRole('heading', { name: 'Account', level: 1 }),
        'the account page',
      )
      await expectVisible(page.getByRole('button', { name: 'Edit my account' }), 'the account form')
      expect(settings.renewals).toEqual(['POST'])
      expect(refused).toEqual([])
    } catch (error) {
      await screenshot(page, 'desktop-early-renewal-FAILED').catch(() => undefined)
      throw error
    } finally {
      await context.close()
    }
  }, 150_000)
})
