import { randomBytes } from 'node:crypto'
import type { Browser, Page } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import {
  chooseSettingsEntry,
  expectPath,
  expectVisible,
  logInThroughForm,
  openSettings,
  step,
} from './web/journey-helpers'

// The conversation of a request, in Chromium, with two people at once. A worker
// requests a post from its details and writes to the owner from the confirmation; the owner
// sees the unread badge rise live, reads (the badge clears, the worker sees "Seen"), answers;
// the owner accepts from "Requests on my posts" and they write again; the worker then finds
// the owner's WhatsApp number in the post's details, with a copy button. Every service runs
// as its own process behind the gateway, against the real servers.

const width = 'desktop' as const
const PASSWORD = 'Cascade2026!'

/** The thread's composer: type, then Enter sends. */
async function sendWithEnter(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill(text)
  await box.press('Enter')
}

function bubble(page: Page, text: string) {
  return page.getByRole('list', { name: 'Messages' }).getByText(text, { exact: true })
}

describe('a conversation between a worker and a post owner, in Chromium', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>

  beforeAll(async () => {
    stack = await startFullStack('conversations')
    browser = await launchChromium()
    api = siteClient(stack.site)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('they write live both ways before and after acceptance; the badges rise and clear; the accepted worker sees the contact value', async () => {
    const suffix = randomBytes(3).toString('hex')
    const title = `Fix a fence ${suffix}`
    const owner = await api.member('Olive', 'Owner')
    const worker = await api.member('Walt', 'Worker')
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Handyman',
        skills: ['Fences'],
        availability: 'Weekends',
        paymentType: 'Cash',
        location: 'Denver CO',
        contacts: [{ value: 'walt@example.test', visibility: 'public' }],
      },
    )
    expect(profile.status).toBe(200)
    const post = await api.call('POST', '/api/jobs', owner.token, {
      title,
      where: 'Denver CO',
      contact: 'WhatsApp',
      contactValue: '(303) 555-0199',
      displayLocation: false,
      displayContact: false,
    })
    expect(post.status).toBe(201)
    const postId = post.body._id as string
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
      await step(opage, width, 'owner-logs-in', async () => {
        await opage.goto(`${stack.site}/login`)
        await logInThroughForm(opage, owner.email, PASSWORD)
        await expectPath(opage, '/')
      })

      await step(wpage, width, 'worker-requests-and-writes', async () => {
        await wpage.goto(`${stack.site}/login`)
        await logInThroughForm(wpage, worker.email, PASSWORD)
        await expectPath(wpage, '/')
        const card = wpage.getByRole('article', { name: title })
        await expectVisible(card, `the post "${title}" in the worker's feed`)
        await card.getByRole('button', { name: 'Details', exact: true }).click()
        const details = wpage.getByRole('dialog', { name: title })
        // Before acceptance the private contact is masked whole: neither method nor value.
        await expectVisible(details.getByLabel(/^Contact hidden/), 'the masked contact')
        expect(await details.textContent()).not.toContain('555-0199')
        expect(await details.textContent()).not.toContain('WhatsApp')
        await details.getByRole('button', { name: 'Send request' }).click()
        const confirm = wpage.getByRole('dialog', { name: `Send a request: ${title}` })
        await confirm.getByRole('button', { name: 'Send a request' }).click()
        await expectVisible(confirm.getByRole('status'), 'the confirmation of the request')
        await confirm.getByRole('link', { name: 'Message' }).click()
        await expectVisible(
          wpage.getByRole('heading', { name: 'Olive Owner' }),
          "the thread with the owner's name",
          30_000,
        )
        await sendWithEnter(wpage, 'Hi Olive, I can fix it on Saturday.')
        await expectVisible(bubble(wpage, 'Hi Olive, I can fix it on Saturday.'), 'my message')
        await screenshot(wpage, 'conversations-1-worker-writes')
      })

      await step(opage, width, 'owner-badge-rises-live', async () => {
        // No reload: the socket carries the message and the unread total.
        await expectVisible(
          opage.getByRole('button', { name: 'Hello Olive, 1 unread messages' }),
          'the unread badge on the user menu (live)',
          30_000,
        )
        await opage.getByRole('button', { name: 'Hello Olive, 1 unread messages' }).click()
        await opage
          .getByRole('list', { name: 'User menu' })
          .getByRole('link', { name: 'Messages, 1 unread' })
          .click()
        await expectPath(opage, '/messages')
        const row = opage.getByRole('list', { name: 'Conversations' }).getByRole('link', {
          name: /Walt Worker/,
        })
        await expectVisible(row, 'the conversation in the list')
        expect(await row.textContent()).toContain(title)
        expect(await row.textContent()).toContain('Hi Olive, I can fix it on Saturday.')
        await screenshot(opage, 'conversations-2-owner-list')
        await row.click()
        await expectVisible(
          bubble(opage, 'Hi Olive, I can fix it on Saturday.'),
          "the worker's message in the owner's thread",
        )
        // Read: the badge clears.
        await expectVisible(
          opage.getByRole('button', { name: 'Hello Olive', exact: true }),
          'the user menu without an unread count',
        )
      })

      await step(wpage, width, 'worker-sees-seen-and-the-answer', async () => {
        await expectVisible(
          wpage.getByText('Seen', { exact: true }),
          '"Seen" under my message',
          30_000,
        )
        await sendWithEnter(opage, 'Great, see you Saturday at 9.')
        await expectVisible(
          bubble(wpage, 'Great, see you Saturday at 9.'),
          "the owner's answer, live in the worker's open thread",
          30_000,
        )
        await screenshot(wpage, 'conversations-3-worker-reads-answer')
      })

      await step(opage, width, 'owner-accepts', async () => {
        await openSettings(opage, width)
        await chooseSettingsEntry(
          opage,
          width,
          'Requests on my posts',
          '/settings-employer-requests',
        )
        const row = opage.getByRole('listitem').filter({ hasText: title })
        await expectVisible(
          row.getByRole('link', { name: 'Message' }),
          'the Message button on the request row',
        )
        await row.getByRole('button', { name: 'Accept', exact: true }).click()
        await expectVisible(row.getByText('Accepted', { exact: true }), 'the status "Accepted"')
      })

      await step(wpage, width, 'after-acceptance', async () => {
        await sendWithEnter(wpage, 'Thanks for accepting!')
        await expectVisible(
          opage.getByRole('button', { name: 'Hello Olive, 1 unread messages' }),
          "the owner's badge rising again, live",
          30_000,
        )
        await opage.getByRole('button', { name: 'Hello Olive, 1 unread messages' }).click()
        await opage
          .getByRole('list', { name: 'User menu' })
          .getByRole('link', { name: 'Messages, 1 unread' })
          .click()
        await opage
          .getByRole('list', { name: 'Conversations' })
          .getByRole('link', { name: /Walt Worker/ })
          .click()
        await expectVisible(bubble(opage, 'Thanks for accepting!'), 'the message after acceptance')
        await expectVisible(
          opage.getByRole('button', { name: 'Hello Olive', exact: true }),
          'the badge cleared again',
        )
        await screenshot(opage, 'conversations-4-owner-after-acceptance')
      })

      await step(wpage, width, 'worker-sees-the-contact-value', async () => {
        await openSettings(wpage, width)
        await chooseSettingsEntry(
          wpage,
          width,
          'Posts I requested',
          '/settings-worker-job-requested',
        )
        const card = wpage.getByRole('listitem', { name: title })
        await expectVisible(card, `the requested post "${title}"`)
        await card.getByRole('button', { name: 'Details', exact: true }).click()
        const details = wpage.getByRole('dialog', { name: title })
        await expectVisible(
          details.getByText('(303) 555-0199', { exact: true }),
          "the owner's number",
        )
        await expectVisible(
          details.getByRole('button', { name: /^Copy WhatsApp number/ }),
          'the copy button',
        )
        await screenshot(wpage, 'conversations-5-worker-sees-contact')
      })

      // The server agrees with the screens: the value for the accepted worker, never for others.
      const asWorker = await api.call('GET', `/api/jobs/${postId}`, worker.token)
      expect(asWorker.body).toMatchObject({ contact: 'WhatsApp', contactValue: '3035550199' })
      const asGuest = await api.call('GET', `/api/jobs/${postId}`)
      expect(asGuest.body.contactValue).toBeNull()
      expect(asGuest.body.contact).toBeNull()
      expect(JSON.stringify(asGuest.body)).not.toContain('3035550199')
      // And the conversation is the two people's only: a third member gets 404 for it.
      const list = await api.call('GET', '/api/conversations', worker.token)
      expect(list.status).toBe(200)
      expect(list.body.items).toHaveLength(1)
      expect(list.body.unreadTotal).toBe(0)
      const stranger = await api.member('Sam', 'Stranger')
      const peek = await api.call(
        'GET',
        `/api/conversations/${list.body.items[0]._id}/messages`,
        stranger.token,
      )
      expect(peek.status).toBe(404)
    } finally {
      await Promise.all([ownerSide.context.close(), workerSide.context.close()])
    }
  }, 300_000)
})
