import type { Browser } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import {
  chooseSettingsEntry,
  expectGreeting,
  expectPath,
  expectVisible,
  logInThroughForm,
  openSettings,
  step,
} from './web/journey-helpers'

// A user blocks another from the worker's details in Chromium, and no longer sees them
// anywhere: not their post in the feed, not their card among people, and the other person no
// longer sees the blocker's post either (docs/blocking.md). Settings › Blocked users lists the
// block and Unblock brings everything back. Every service its own process behind the gateway.

describe('blocking in Chromium against the full stack', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>

  beforeAll(async () => {
    stack = await startFullStack('blocking')
    browser = await launchChromium()
    api = siteClient(stack.site)
  }, 600_000)
  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('blocks a worker from their details; neither sees the other any more; Unblock restores', async () => {
    const alice = await api.member('Alice', 'Blocker')
    const bob = await api.member('Bob', 'Pest')
    const profile = await api.call('PUT', `/api/users/${bob.userId}/worker-profile`, bob.token, {
      title: 'Beekeeper',
      skills: ['Bees'],
      availability: 'Weekends',
      paymentType: 'Cash',
      location: 'Denver CO',
      contacts: [{ value: 'bob@example.test', visibility: 'public' }],
    })
    expect(profile.status).toBe(200)
    const bobsTitle = 'Harvest honey okapi'
    const alicesTitle = 'Paint a barn okapi'
    const bobsPost = await api.call('POST', '/api/jobs', bob.token, {
      title: bobsTitle,
      where: 'Austin TX',
    })
    expect(bobsPost.status).toBe(201)
    const alicesPost = await api.call('POST', '/api/jobs', alice.token, {
      title: alicesTitle,
      where: 'Austin TX',
    })
    expect(alicesPost.status).toBe(201)
    const searchTitles = async (token: string) =>
      (
        (await api.call('GET', '/api/jobs?search=okapi&limit=10', token)).body.jobs as Array<{
          title: string
        }>
      ).map((post) => post.title)
    await waitFor(async () => (await searchTitles(alice.token)).length === 2, {
      timeoutMs: 60_000,
      what: 'both posts in the feed',
    })

    const { context, page } = await newPage(browser, DESKTOP)
    try {
      await step(page, 'desktop', 'block-from-worker-details', async () => {
        await page.goto(`${stack.site}/login`)
        // Kept signed in: the page is reloaded below.
        await logInThroughForm(page, alice.email, alice.password, { keepSignedIn: true })
        await expectPath(page, '/')
        await expectVisible(
          page.getByRole('article', { name: bobsTitle }),
          "Bob's post in the feed",
        )
        await page
          .getByRole('group', { name: 'Feed type' })
          .getByRole('button', { name: 'People' })
          .click()
        const card = page.getByRole('article', { name: 'Bob Pest' })
        await expectVisible(card, "Bob's card among people")
        await card.getByRole('button', { name: 'Details', exact: true }).click()
        const details = page.getByRole('dialog', { name: 'Bob Pest' })
        await details.getByRole('button', { name: 'Block', exact: true }).click()
        const confirm = page.getByRole('dialog', { name: 'Block Bob Pest?' })
        await expectVisible(confirm.getByText(/will not be told/), 'what a block does')
        await screenshot(page, 'desktop-blocking-01-confirm')
        await confirm.getByRole('button', { name: 'Block', exact: true }).click()
        await waitFor(async () => (await page.getByRole('dialog').count()) === 0, {
          timeoutMs: 10_000,
          what: 'the dialogs closed',
        })
      })

      await step(page, 'desktop', 'blocked-worker-gone-everywhere', async () => {
        // The people feed is read again at once (the block is the people service's own).
        await waitFor(
          async () => (await page.getByRole('article', { name: 'Bob Pest' }).count()) === 0,
          {
            timeoutMs: 15_000,
            what: "Bob's card gone from the people feed",
          },
        )
        // The posts feed learns the block from its event: a reload after it shows no Bob.
        await waitFor(async () => !(await searchTitles(alice.token)).includes(bobsTitle), {
          timeoutMs: 30_000,
          what: "Bob's post gone from Alice's feed",
        })
        await page.reload()
        await expectGreeting(page, 'desktop', 'Alice')
        await page
          .getByRole('group', { name: 'Feed type' })
          .getByRole('button', { name: 'Posts' })
          .click()
        await expectVisible(page.getByRole('article', { name: alicesTitle }), "Alice's own post")
        expect(await page.getByRole('article', { name: bobsTitle }).count()).toBe(0)
        await screenshot(page, 'desktop-blocking-02-feed-without-bob')
      })
      // Both ways, on the server: Bob sees nothing of Alice, and cannot reach her.
      expect(await searchTitles(bob.token)).not.toContain(alicesTitle)
      expect((await api.call('GET', `/api/jobs/${alicesPost.body._id}`, bob.token)).status).toBe(
        404,
      )
      expect((await api.call('GET', `/api/users/${alice.userId}`, bob.token)).status).toBe(404)
      expect((await api.call('GET', `/api/jobs/${bobsPost.body._id}`, alice.token)).status).toBe(
        404,
      )

      await step(page, 'desktop', 'unblock-from-settings', async () => {
        await openSettings(page, 'desktop')
        await chooseSettingsEntry(page, 'desktop', 'Blocked users', '/settings-blocked-users')
        await expectVisible(page.getByText('Bob Pest', { exact: true }), 'Bob in Blocked users')
        await screenshot(page, 'desktop-blocking-03-blocked-users')
        await page.getByRole('button', { name: 'Unblock Bob Pest' }).click()
        await expectVisible(page.getByText('You have not blocked anyone.'), 'the empty list')
      })
      await waitFor(async () => (await searchTitles(alice.token)).includes(bobsTitle), {
        timeoutMs: 30_000,
        what: "Bob's post back in Alice's feed",
      })
      await waitFor(async () => (await searchTitles(bob.token)).includes(alicesTitle), {
        timeoutMs: 30_000,
        what: "Alice's post back in Bob's feed",
      })
    } finally {
      await context.close()
    }
  }, 600_000)
})
