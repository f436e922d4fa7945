import { randomBytes } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import type { Page } from 'playwright-core'
import {
  chooseSettingsEntry,
  expectPath,
  expectVisible,
  logInThroughForm,
  openSettings,
  step,
} from './web/journey-helpers'

// Offers on a request, in Chromium, with both sides at once (docs/post-requests.md,
// "Offers"): a worker sends a request with an offer, the owner sees it side by side and
// counters, the worker accepts the counter, the owner accepts the request, and the agreed
// amount shows on both sides and in the conversation. Every service runs as its own process
// behind the gateway, against the real servers.

const width = 'desktop' as const
const PASSWORD = 'Cascade2026!'

/**
 * A fresh load of the app, signed in (the session is not kept across a full load without
 * "Keep me signed in"), then a settings page through the app's own navigation: what the
 * other side did since is read from the server.
 */
async function freshSettingsPage(
  page: Page,
  site: string,
  email: string,
  label: string,
  route: string,
) {
  await page.goto(`${site}/login`)
  await logInThroughForm(page, email, PASSWORD)
  await expectPath(page, '/')
  await openSettings(page, width)
  await chooseSettingsEntry(page, width, label, route)
}

describe('offers on a request, in Chromium', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>

  beforeAll(async () => {
    stack = await startFullStack('offers')
    browser = await launchChromium()
    api = siteClient(stack.site)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('a worker offers an amount, the owner counters, the worker accepts; the agreed amount shows on both sides', async () => {
    const suffix = randomBytes(3).toString('hex')
    const title = `Paint a shed ${suffix}`
    const owner = await api.member('Opal', 'Owner')
    const worker = await api.member('Wade', 'Worker')
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Painter',
        skills: ['Painting'],
        availability: 'Weekends',
        paymentType: 'Cash',
        location: 'Denver CO',
        contacts: [{ value: 'wade@example.test', visibility: 'public' }],
      },
    )
    expect(profile.status).toBe(200)
    const post = await api.call('POST', '/api/jobs', owner.token, {
      title,
      where: 'Denver CO',
      salary: '$150',
    })
    expect(post.status).toBe(201)
    await waitFor(
      async () =>
        (await api.call('GET', `/api/jobs?search=${encodeURIComponent(title)}&limit=10`)).body?.jobs
          ?.length > 0,
      { timeoutMs: 60_000, what: 'the post in the feed' },
    )

    const ownerSide = await newPage(browser, DESKTOP)
    const workerSide = await newPage(browser, DESKTOP)
    const opage = ownerSide.page
    const wpage = workerSide.page
    try {
      await step(wpage, width, 'worker-offers-an-amount', async () => {
        await wpage.goto(`${stack.site}/login`)
        await logInThroughForm(wpage, worker.email, PASSWORD)
        await expectPath(wpage, '/')
        const card = wpage.getByRole('article', { name: title })
        await expectVisible(card, `the post "${title}" in the worker's feed`, 60_000)
        await card.getByRole('button', { name: 'Details', exact: true }).click()
        await wpage
          .getByRole('dialog', { name: title })
          .getByRole('button', { name: 'Send request' })
          .click()
        const confirm = wpage.getByRole('dialog', { name: `Send a request: ${title}` })
        await confirm.getByLabel(/Your offer/).fill('120')
        await confirm.getByLabel(/When you can do it/).fill('Saturday morning')
        await confirm.getByRole('button', { name: 'Send a request' }).click()
        await expectVisible(confirm.getByRole('status'), 'the confirmation of the request')
        await screenshot(wpage, 'offers-1-worker-offers')
      })

      await step(opage, width, 'owner-sees-the-offer-and-counters', async () => {
        await freshSettingsPage(
          opage,
          stack.site,
          owner.email,
          'Requests on my posts',
          '/settings-employer-requests',
        )
        const table = opage.getByRole('table', { name: title })
        await expectVisible(table, 'the offers side by side', 30_000)
        const offerRow = table.getByRole('row', { name: /Wade Worker/ })
        await expectVisible(offerRow.getByText('$120'), 'the offered amount in the table')
        await expectVisible(offerRow.getByText('Saturday morning'), 'the proposed time')
        const row = opage.getByRole('listitem').filter({ hasText: title })
        await row.getByRole('button', { name: 'Make a counter-offer' }).click()
        const form = opage.getByRole('form', { name: 'Counter-offer to Wade Worker' })
        await form.getByLabel('Counter-offer').fill('100')
        await form.getByRole('button', { name: 'Send counter-offer' }).click()
        await expectVisible(
          row.getByText('$100 (waiting for an answer)'),
          'the counter-offer on the row',
        )
        await screenshot(opage, 'offers-2-owner-counters')
      })

      await step(wpage, width, 'worker-accepts-the-counter', async () => {
        await freshSettingsPage(
          wpage,
          stack.site,
          worker.email,
          'Posts I requested',
          '/settings-worker-job-requested',
        )
        const card = wpage.getByRole('listitem', { name: title })
        const counter = card.getByRole('group', { name: 'Counter-offer' })
        await expectVisible(counter, 'the counter-offer to answer', 30_000)
        expect(await counter.textContent()).toContain('The owner offers $100')
        await counter.getByRole('button', { name: 'Accept counter-offer' }).click()
        await expectVisible(card.getByText('$100 (accepted)'), 'the counter, accepted')
        await screenshot(wpage, 'offers-3-worker-accepts-counter')
      })

      await step(opage, width, 'owner-accepts-the-request', async () => {
        await freshSettingsPage(
          opage,
          stack.site,
          owner.email,
          'Requests on my posts',
          '/settings-employer-requests',
        )
        const row = opage.getByRole('listitem').filter({ hasText: title })
        await expectVisible(row.getByText('$100 (accepted)'), 'the accepted counter', 30_000)
        await row.getByRole('button', { name: 'Accept', exact: true }).click()
        await expectVisible(row.getByText('Agreed amount'), "the agreed amount, owner's side")
        expect(await row.textContent()).toContain('$100')
        await screenshot(opage, 'offers-4-owner-agreed')
      })

      // The line is written from the decision's event: wait until it landed, so the thread
      // the worker opens next reads it.
      const sentList = await api.call(
        'GET',
        `/api/jobs/user/${worker.userId}/sent-requests`,
        worker.token,
      )
      const requestId = sentList.body[0]._id as string
      await waitFor(
        async () =>
          JSON.stringify(
            (await api.call('GET', `/api/conversations/jr:${requestId}/messages`, worker.token))
              .body,
          ).includes('Agreed amount: $100'),
        { timeoutMs: 60_000, what: 'the agreed amount line in the conversation' },
      )

      await step(wpage, width, 'worker-sees-the-agreed-amount', async () => {
        await freshSettingsPage(
          wpage,
          stack.site,
          worker.email,
          'Posts I requested',
          '/settings-worker-job-requested',
        )
        const card = wpage.getByRole('listitem', { name: title })
        await expectVisible(card.getByText('Agreed amount'), "the agreed amount, worker's side")
        expect(await card.textContent()).toContain('$100')
        await card.getByRole('link', { name: 'Message' }).click()
        const line = wpage
          .getByRole('list', { name: 'Messages' })
          .getByText('Request accepted. Agreed amount: $100', { exact: true })
        // Landed before this step (waited for above): the thread reads it when it opens.
        await expectVisible(line, 'the agreed amount in the thread', 30_000)
        await expectVisible(
          wpage.getByText('Wade Worker offered $120', { exact: true }),
          'the offer line in the thread',
        )
        await screenshot(wpage, 'offers-5-thread-lines')
      })

      // A third member sees nothing of it.
      const stranger = await api.member('Sid', 'Stranger')
      const peek = await api.call(
        'POST',
        `/api/jobs/requests/${requestId}/counter-offer`,
        stranger.token,
        { amount: 1 },
      )
      expect(peek.status).toBe(404)
      const details = await api.call('GET', `/api/jobs/${post.body._id}`, stranger.token)
      expect(details.body).not.toHaveProperty('offer')
      expect(JSON.stringify(details.body)).not.toContain('Saturday morning')
    } finally {
      await Promise.all([ownerSide.context.close(), workerSide.context.close()])
    }
  }, 300_000)
})
