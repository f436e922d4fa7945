import { randomBytes } from 'node:crypto'
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

// The life of a post in Chromium against the full stack (docs/posts.md, "The life of a
// post"): an owner marks a post filled in My Posts and the worker whose request was still
// pending is told in their bell; the owner then relists it.

describe('the life of a post in Chromium against the full stack', () => {
  let stack: FullStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startFullStack('postlife')
    browser = await launchChromium()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('an owner marks a post filled and the pending requester is told; the owner relists it', async () => {
    const api = siteClient(stack.site)
    const owner = await api.member('Olga', 'Owner')
    const worker = await api.member('Wanda', 'Worker')
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Gardener',
        skills: ['Gardening'],
        availability: 'Weekends',
        paymentType: 'Cash',
        location: 'Denver CO',
        contacts: [{ value: 'wanda@example.test', visibility: 'public' }],
      },
    )
    expect(profile.status).toBe(200)
    const title = `Trim hedges ${randomBytes(3).toString('hex')}`
    const created = await api.call('POST', '/api/jobs', owner.token, {
      title,
      where: 'Denver CO',
    })
    expect(created.status).toBe(201)
    const postId = created.body._id as string
    // The jobs service learns the worker profile from an event: the request waits for it.
    await waitFor(
      async () =>
        (await api.call('POST', '/api/jobs/requests', worker.token, { postID: postId })).status ===
        201,
      { timeoutMs: 60_000, what: "the worker's request on the post" },
    )

    const { context, page } = await newPage(browser, DESKTOP)
    const contexts = [context]
    try {
      await step(page, 'desktop', 'owner-marks-filled', async () => {
        await page.goto(`${stack.site}/login`)
        await logInThroughForm(page, owner.email, owner.password)
        await expectPath(page, '/')
        await expectGreeting(page, 'desktop', 'Olga')
        await openSettings(page, 'desktop')
        await chooseSettingsEntry(page, 'desktop', 'My Posts', '/settings-employer-jobs')
        const card = page.getByRole('listitem', { name: title })
        await expectVisible(card.getByText('Live', { exact: true }), 'the post shown as Live')
        await card.getByRole('button', { name: `Mark ${title} filled` }).click()
        const dialog = page.getByRole('dialog', { name: 'Mark filled' })
        await dialog.getByRole('button', { name: 'Mark filled' }).click()
        await expectVisible(
          card.getByText('Filled', { exact: true }),
          'the post shown as Filled',
          20_000,
        )
        await screenshot(page, 'desktop-post-life-filled')
      })

      // Out of the feed for everyone.
      const search = await api.call('GET', `/api/jobs?search=${encodeURIComponent(title)}`)
      expect(search.body.jobs).toEqual([])

      const workerSide = await newPage(browser, DESKTOP)
      contexts.push(workerSide.context)
      const wpage = workerSide.page
      await step(wpage, 'desktop', 'requester-told', async () => {
        await wpage.goto(`${stack.site}/login`)
        await logInThroughForm(wpage, worker.email, worker.password)
        await expectPath(wpage, '/')
        await expectGreeting(wpage, 'desktop', 'Wanda')
        const told = `The post "${title}" was filled, so your request was not taken up`
        await waitFor(
          async () => {
            const bell = wpage.getByRole('button', { name: /^Notifications,/ })
            await bell.click()
            // The list loads after the dropdown opens: give it time before reloading.
            const found = await wpage
              .getByRole('region', { name: 'Notifications' })
              .getByText(told)
              .waitFor({ state: 'visible', timeout: 10_000 })
              .then(
                () => true,
                () => false,
              )
            if (!found) {
              await wpage.keyboard.press('Escape')
              await wpage.reload()
              await expectGreeting(wpage, 'desktop', 'Wanda')
            }
            return found
          },
          { timeoutMs: 120_000, what: "the filled notice in the requester's bell" },
        )
        await screenshot(wpage, 'desktop-post-life-requester-told')
      })

      await step(page, 'desktop', 'owner-relists', async () => {
        const card = page.getByRole('listitem', { name: title })
        await card.getByRole('button', { name: `Relist ${title}` }).click()
        const dialog = page.getByRole('dialog', { name: 'Relist for 30 days' })
        await dialog.getByRole('button', { name: 'Relist for 30 days' }).click()
        // Live again, with its new last day 30 days ahead.
        await expectVisible(
          card.getByText(/^Live · last day \d{4}-\d\d-\d\d$/),
          'the post Live again, with its new last day',
          20_000,
        )
      })
      const top = await api.call('GET', '/api/jobs?limit=1')
      expect(top.body.jobs[0]._id).toBe(postId)
    } finally {
      for (const open of contexts) await open.close()
    }
  }, 300_000)
})
