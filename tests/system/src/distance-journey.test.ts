import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { savedSearchCriteria, savedSearchQueryOf } from '@marketplace/contracts/marketplace'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import { expectVisible, step } from './web/journey-helpers'

// "Near me" in Chromium against the full stack (docs/distance.md): a guest narrows the home
// feed to 25 miles of Austin, TX; a post in Round Rock (about 17 miles away) shows with its
// distance, one in Dallas (about 180 miles) does not. The home page's URL holds that feed
// (features/feed/use-feed-url-state.ts): a reload and a saved search's link, opened in a
// fresh browser, show the same.

// docs/distance.md shows this journey's screen. It is written there only when asked
// (DOCS_SCREENS=1): screens.test.ts checks that nothing touches docs/screens while it runs
// beside this file, and a test run should leave the tree as it found it.
const docsScreen = join(__dirname, '..', '..', '..', 'docs', 'screens', 'distance-within.png')
const writeDocsScreen = process.env.DOCS_SCREENS === '1'

/** The feed's cards, by their titles (one `article.card` per post). */
const card = (page: Page, title: string) => page.locator('article.card').filter({ hasText: title })

/** Round Rock's card with its distance, and no Dallas card, once the feed has settled. */
async function expectNearAustin(page: Page, roundRock: string, dallas: string): Promise<void> {
  await expectVisible(card(page, roundRock), 'the Round Rock post')
  await expectVisible(
    card(page, roundRock).getByText(/^\d+(\.\d)? mi away$/),
    "the Round Rock post's distance",
  )
  await waitFor(async () => (await card(page, dallas).count()) === 0, {
    timeoutMs: 20_000,
    what: 'the Dallas post to leave the feed',
  })
  expect(await page.locator('article.card').count()).toBe(1)
}

/** The home page's URL holds the place and the distance. */
function expectNearInUrl(page: Page): void {
  const url = new URL(page.url())
  expect(url.pathname).toBe('/')
  expect(url.searchParams.get('near')).toBe('Austin, TX')
  expect(url.searchParams.get('within')).toBe('25')
}

describe('distance search in Chromium against the full stack', () => {
  let stack: FullStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startFullStack('distance')
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('shows a guest the posts within 25 miles of Austin, keeps them in the URL, a reload and a saved link', async () => {
    const api = siteClient(stack.site)
    const owner = await api.member('Olive', 'Owner')
    // The stack's databases are its own: these are the only posts (and the screenshot is
    // the same at every run).
    const roundRock = 'Move a couch in Round Rock'
    const dallas = 'Move a desk in Dallas'
    for (const [title, where] of [
      [roundRock, 'Round Rock, TX'],
      [dallas, 'Dallas, TX'],
    ]) {
      const created = await api.call('POST', '/api/jobs', owner.token, { title, where })
      expect(created.status).toBe(201)
    }
    // Both are in the guest's feed before any place is chosen.
    await waitFor(
      async () => {
        const feed = await api.call('GET', '/api/jobs?page=1&sort=desc')
        const titles = (feed.body.jobs as Array<{ title: string }>).map((post) => post.title)
        return titles.includes(roundRock) && titles.includes(dallas)
      },
      { timeoutMs: 30_000, what: 'both posts in the feed' },
    )

    const { context, page } = await newPage(browser, DESKTOP)
    try {
      await step(page, 'desktop', 'distance-choose-austin', async () => {
        await page.goto(`${stack.site}/`)
        await expectVisible(card(page, roundRock), 'the Round Rock post')
        await expectVisible(card(page, dallas), 'the Dallas post')
        expect(new URL(page.url()).search).toBe('')

        const distance = page.getByRole('form', { name: 'Distance' })
        await distance.getByLabel('Of place').fill('Austin, TX')
        await distance.getByLabel('Within').selectOption({ label: '25 mi' })
        await expectNearAustin(page, roundRock, dallas)
        await page.waitForURL((url) => url.searchParams.get('near') === 'Austin, TX')
        expectNearInUrl(page)
        await screenshot(page, 'desktop-distance-01-within-25')
        if (writeDocsScreen) {
          mkdirSync(join(docsScreen, '..'), { recursive: true })
          await page.screenshot({ path: docsScreen })
        }
      })

      await step(page, 'desktop', 'distance-reload', async () => {
        await page.reload()
        await expectNearAustin(page, roundRock, dallas)
        expectNearInUrl(page)
        const distance = page.getByRole('form', { name: 'Distance' })
        expect(await distance.getByLabel('Within').inputValue()).toBe('25')
        expect(await distance.getByLabel('Of place').inputValue()).toBe('Austin, TX')
      })
    } finally {
      await context.close()
    }

    // A saved search's link, as its notice and e-mail give it (the query as notifications
    // normalizes it), opened in a browser that has never been to the site.
    const query = savedSearchQueryOf(savedSearchCriteria('feed=job&near=Austin, TX&within=25'))
    const fresh = await newPage(browser, DESKTOP)
    try {
      await step(fresh.page, 'desktop', 'distance-saved-link', async () => {
        await fresh.page.goto(`${stack.site}/?${query}`)
        await expectNearAustin(fresh.page, roundRock, dallas)
        expectNearInUrl(fresh.page)
        await screenshot(fresh.page, 'desktop-distance-02-saved-link')
      })
    } finally {
      await fresh.context.close()
    }
  }, 600_000)
})
