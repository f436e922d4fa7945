import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { CONTACT_OPTIONS } from '@marketplace/contracts/marketplace'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, SCREENSHOT_DIR, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import {
  chooseSettingsEntry,
  expectGreeting,
  expectVisible,
  logInThroughForm,
  openSettings,
} from './web/journey-helpers'

// The product's documented API, used as a plain HTTP client written from it would, through
// the gateway: the create body exactly as documented (no contact value) for every contact
// option; a private contact hidden whole (method too) from everyone but the owner and the
// accepted worker, the contact filter included; a request on a post that is not live refused
// with 400 and a message, not with the duplicate's 409. Then the same refusal in Chromium, as
// the real server answers it: the worker's Send a request button stays usable.

interface FeedPost {
  _id: string
  title: string
  contact: string | null
  contactValue?: string | null
  location: string | null
}

describe('the documented posts API through the gateway, as a client written from it', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>
  const suffix = Date.now().toString(36)

  beforeAll(async () => {
    stack = await startFullStack('spec-contract')
    api = siteClient(stack.site)
    browser = await launchChromium()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  /** The guest's feed page filtered by one contact option, as the feed's filter bar asks it. */
  async function feedByContact(contact: string, token?: string): Promise<FeedPost[]> {
    const answer = await api.call(
      'GET',
      `/api/jobs?contact=${encodeURIComponent(contact)}&page=1&sort=desc&limit=50`,
      token,
    )
    expect(answer.status).toBe(200)
    return answer.body.jobs as FeedPost[]
  }

  it('creates a post with the documented body for every contact option, lists it and filters on it', async () => {
    const owner = await api.member('Opal', 'Contract')
    // What each create answered, kept beside the screenshots as a record a reviewer can read.
    const transcript: Array<{ contact: string; status: number; body: unknown }> = []
    for (const contact of CONTACT_OPTIONS) {
      const title = `Spec body ${contact} ${suffix}`
      const created = await api.call('POST', '/api/jobs', owner.token, {
        userID: owner.userId,
        title,
        location: 'Austin TX',
        jobStartEnd: 'Saturday 9am-1pm',
        salary: '$60',
        paymentType: ['Cash'],
        contact,
        infos: 'Two hours of yard work',
        displayLocation: true,
        displayContact: true,
        jobPicture: '',
      })
      transcript.push({
        contact,
        status: created.status,
        body: {
          _id: created.body?._id,
          title: created.body?.title,
          location: created.body?.location,
          paymentType: created.body?.paymentType,
          contact: created.body?.contact,
          contactValue: created.body?.contactValue,
        },
      })
      expect({ contact, status: created.status }).toEqual({ contact, status: 201 })
      expect(created.body).toMatchObject({ title, location: 'Austin TX', paymentType: ['Cash'] })
      expect(created.body._id).toMatch(/^[0-9a-f]{24}$/)
      await waitFor(
        async () => (await feedByContact(contact)).some((post) => post._id === created.body._id),
        { timeoutMs: 30_000, intervalMs: 250, what: `the ${contact} post in the filtered feed` },
      )
      const listed = (await feedByContact(contact)).find((post) => post._id === created.body._id)
      expect(listed).toMatchObject({ contact, contactValue: null })
    }
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    writeFileSync(
      join(SCREENSHOT_DIR, 'spec-contract-create-answers.json'),
      `${JSON.stringify(transcript, null, 2)}\n`,
    )
  })

  it("hides a private contact's method and value from a guest and a stranger, shows both to the owner and the accepted worker", async () => {
    const [owner, worker, stranger] = [
      await api.member('Orla', 'Private'),
      await api.member('Walt', 'Accepted'),
      await api.member('Sid', 'Stranger'),
    ]
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Gardener',
        skills: ['Weeding'],
        availability: 'Weekends',
        paymentType: 'Cash',
        location: 'Austin TX',
        contacts: [{ value: 'walt@example.test', visibility: 'public' }],
      },
    )
    expect(profile.status).toBe(200)
    const title = `Private contact ${suffix}`
    const created = await api.call('POST', '/api/jobs', owner.token, {
      userID: owner.userId,
      title,
      location: '12 Hidden Lane, Austin TX',
      jobStartEnd: 'Sunday',
      salary: '$80',
      paymentType: ['Zelle'],
      contact: 'Telegram',
      infos: 'Trim the hedge',
      displayLocation: false,
      displayContact: false,
      jobPicture: '',
    })
    expect(created.status).toBe(201)
    const postId = created.body._id as string

    for (const [who, token] of [
      ['guest', undefined],
      ['stranger', stranger.token],
    ] as const) {
      const details = await api.call('GET', `/api/jobs/${postId}`, token)
      expect({ who, status: details.status }).toEqual({ who, status: 200 })
      expect(details.body).toMatchObject({ contact: null, contactValue: null, location: null })
      expect(JSON.stringify(details.body)).not.toContain('Telegram')
      // The contact filter never matches a hidden contact: it would reveal the method.
      expect((await feedByContact('Telegram', token)).map((post) => post._id)).not.toContain(postId)
    }
    expect((await api.call('GET', `/api/jobs/${postId}`, owner.token)).body).toMatchObject({
      contact: 'Telegram',
      location: '12 Hidden Lane, Austin TX',
    })

    await waitFor(
      async () =>
        (await api.call('POST', '/api/jobs/requests', worker.token, { postID: postId })).status ===
        201,
      { timeoutMs: 60_000, intervalMs: 500, what: "the worker's request (jobs knows the worker)" },
    )
    const received = await api.call(
      'GET',
      `/api/jobs/user/${owner.userId}/received-requests`,
      owner.token,
    )
    const request = (received.body as Array<{ _id: string; postId?: string }>)[0]
    expect(request).toBeDefined()
    const decided = await api.call('PATCH', `/api/jobs/requests/${request!._id}`, owner.token, {
      status: 'accepted',
    })
    expect(decided.status).toBe(200)
    expect((await api.call('GET', `/api/jobs/${postId}`, worker.token)).body).toMatchObject({
      contact: 'Telegram',
      location: '12 Hidden Lane, Austin TX',
    })
    expect((await api.call('GET', `/api/jobs/${postId}`, stranger.token)).body.contact).toBeNull()
  })

  it('refuses a request on a post that is not live with 400 and a message; the web keeps the button usable', async () => {
    const [owner, worker] = [
      await api.member('Otto', 'Offline'),
      await api.member('Wren', 'Worker'),
    ]
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Painter',
        skills: ['Painting'],
        availability: 'Weekdays',
        paymentType: 'Cash',
        location: 'Austin TX',
        contacts: [{ value: 'wren@example.test', visibility: 'public' }],
      },
    )
    expect(profile.status).toBe(200)
    const title = `Paused fence job ${suffix}`
    const created = await api.call('POST', '/api/jobs', owner.token, {
      userID: owner.userId,
      title,
      location: 'Austin TX',
      contact: 'Email',
      displayLocation: true,
      displayContact: true,
    })
    expect(created.status).toBe(201)
    const postId = created.body._id as string
    // The worker saves it while it is live, then its owner switches it off.
    await waitFor(
      async () =>
        (
          await api.call('POST', '/api/favorites/posts', worker.token, {
            userId: worker.userId,
            postId,
          })
        ).status === 201,
      { timeoutMs: 60_000, intervalMs: 500, what: 'the favorite (favorites knows the post)' },
    )
    expect(
      (await api.call('PUT', `/api/jobs/${postId}`, owner.token, { isOnline: false })).status,
    ).toBe(200)

    await waitFor(
      async () => {
        const refused = await api.call('POST', '/api/jobs/requests', worker.token, {
          postID: postId,
        })
        // Until jobs knows the worker, a 403 asks for a worker profile; then the real answer.
        if (refused.status === 403) return false
        expect(refused).toMatchObject({
          status: 400,
          body: { message: 'This post is not taking requests right now' },
        })
        return true
      },
      { timeoutMs: 60_000, intervalMs: 500, what: "jobs' answer to a request on an offline post" },
    )

    // The same refusal in the browser, from the worker's saved posts.
    const { context, page } = await newPage(browser, DESKTOP)
    try {
      await page.goto(`${stack.site}/login`)
      await logInThroughForm(page, worker.email, worker.password)
      await expectGreeting(page, 'desktop', 'Wren')
      // Through the app's own menus: a reload would end a session not kept signed in.
      await openSettings(page, 'desktop')
      await chooseSettingsEntry(page, 'desktop', 'Favorite posts', '/settings-favorite-jobs')
      const card = page.getByRole('listitem', { name: title })
      await expectVisible(card, `the saved post "${title}"`)
      await card.getByRole('button', { name: 'Details' }).click()
      const details = page.getByRole('dialog', { name: title })
      await expectVisible(details, 'the post details')
      await details.getByRole('button', { name: 'Send request' }).click()
      const requestDialog = page.getByRole('dialog', { name: `Send a request: ${title}` })
      await requestDialog.getByRole('button', { name: 'Send a request' }).click()
      await expectVisible(
        requestDialog
          .getByRole('alert')
          .filter({ hasText: 'This post is not taking requests right now' }),
        "the server's message",
      )
      await expectVisible(
        requestDialog.getByRole('button', { name: 'Send a request' }),
        'the Send a request button, still there',
      )
      expect(await requestDialog.getByRole('button', { name: 'Send a request' }).isEnabled()).toBe(
        true,
      )
      expect(await requestDialog.getByText('Already Requested').count()).toBe(0)
      await screenshot(page, 'spec-contract-offline-post-refused')
    } finally {
      await context.close()
    }

    // Back online, the request goes through; a second one is the duplicate's 409.
    expect(
      (await api.call('PUT', `/api/jobs/${postId}`, owner.token, { isOnline: true })).status,
    ).toBe(200)
    expect(
      (await api.call('POST', '/api/jobs/requests', worker.token, { postID: postId })).status,
    ).toBe(201)
    const duplicate = await api.call('POST', '/api/jobs/requests', worker.token, { postID: postId })
    expect(duplicate).toMatchObject({
      status: 409,
      body: { message: 'You have already sent a request for this post' },
    })
  })
})
