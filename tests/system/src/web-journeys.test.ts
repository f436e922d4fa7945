import { randomBytes } from 'node:crypto'
import type { Browser, Locator, Page } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import { mailedCode, siteClient } from './processes'
import { DESKTOP, MOBILE, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import {
  AccessibilityLedger,
  photoJpeg,
  chooseSettingsEntry,
  expectGreeting,
  expectPath,
  expectVisible,
  logInThroughForm,
  openMakeAPost,
  openSettings,
  settingsNav,
  step,
  type WidthName,
} from './web/journey-helpers'

// The browser journeys of the web app, at desktop width and at 768 px:
// Debian's Chromium drives the built app served by the gateway, every service its own
// process against the real servers of infra/local. One stack for the whole file.

type Member = Awaited<ReturnType<ReturnType<typeof siteClient>['member']>>

const WIDTHS: ReadonlyArray<[WidthName, { width: number; height: number }]> = [
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
]

const PASSWORD = 'Journey2026!'
const SEED_TITLE = 'Seed post fence painting'

/** In order, with what each page must show (its heading or a key text of the product's copy). */
const SETTINGS_PAGES: ReadonlyArray<{
  label: string
  route: string
  what: string
  find: (page: Page) => Locator
}> = [
  {
    label: 'Account',
    route: '/settings-account',
    what: "the 'Edit my account' button",
    find: (p) => p.getByRole('button', { name: 'Edit my account' }),
  },
  {
    label: 'My Profile',
    route: '/settings-my-worker-profile',
    what: "the 'Create Your Profile' prompt of a non-worker",
    find: (p) => p.getByText('Create Your Profile'),
  },
  {
    label: 'My Posts',
    route: '/settings-employer-jobs',
    what: "the title 'My posts'",
    find: (p) => p.getByRole('heading', { name: /^My posts/ }),
  },
  {
    label: 'Posts I requested',
    route: '/settings-worker-job-requested',
    what: "the title 'Posts I Requested'",
    find: (p) => p.getByRole('heading', { name: 'Posts I Requested', exact: true }),
  },
  {
    label: 'Requests on my posts',
    route: '/settings-employer-requests',
    what: "'No requests found matching your criteria.'",
    find: (p) => p.getByText('No requests found matching your criteria.'),
  },
  {
    label: 'People I requested',
    route: '/settings-employer-workers-requested',
    what: "'No requests found'",
    find: (p) => p.getByText('No requests found', { exact: true }),
  },
  {
    label: 'People requested me',
    route: '/settings-worker-requested-for',
    what: "the title 'People Requested Me'",
    find: (p) => p.getByRole('heading', { name: 'People Requested Me', exact: true }),
  },
  {
    label: 'Favorite people',
    route: '/settings-favorite-workers',
    what: "'You have not added any people to your favorites yet'",
    find: (p) => p.getByText('You have not added any people to your favorites yet'),
  },
  {
    label: 'Favorite posts',
    route: '/settings-favorite-jobs',
    what: "the title 'Favorite Posts'",
    find: (p) => p.getByRole('heading', { name: 'Favorite Posts', exact: true }),
  },
  {
    label: 'Security',
    route: '/settings-security',
    what: 'the SMS and Email two-step checkboxes',
    find: (p) => p.getByRole('checkbox', { name: 'SMS' }),
  },
  {
    label: 'Blocked users',
    route: '/settings-blocked-users',
    what: "'You have not blocked anyone.'",
    find: (p) => p.getByText('You have not blocked anyone.'),
  },
  {
    label: 'Saved searches',
    route: '/settings-saved-searches',
    what: "'You have no saved searches yet.'",
    find: (p) => p.getByText('You have no saved searches yet.'),
  },
  {
    label: 'Notifications',
    route: '/settings-notifications',
    what: "the channel 'Email Notifications'",
    find: (p) => p.getByText('Email Notifications'),
  },
  {
    label: 'Help & Support',
    route: '/settings-help-support',
    what: "the button 'Send your message to us'",
    find: (p) => p.getByRole('button', { name: 'Send your message to us' }),
  },
  {
    label: 'Others',
    route: '/settings-others',
    what: "'Before You Go...'",
    find: (p) => p.getByText('Before You Go...'),
  },
  {
    label: 'Stats',
    route: '/settings-employer-stats',
    what: "the title 'Stats'",
    find: (p) => p.getByRole('heading', { name: 'Stats', exact: true }),
  },
  {
    label: 'Rate your workers',
    route: '/settings-rate-your-workers',
    what: "a 'Rate your workers' heading (a placeholder page)",
    find: (p) => p.getByRole('heading', { name: /rate your workers/i }),
  },
]

const slugOf = (route: string) => route.replace(/^\//, '')

describe('web journeys in Chromium against the full stack', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>
  let worker: Member
  let seedPostId: string

  beforeAll(async () => {
    stack = await startFullStack('journeys')
    browser = await launchChromium()
    api = siteClient(stack.site)
    // The worker who requests posts; their own post gives the guest's feed a card.
    worker = await api.member('Wanda', 'Worker')
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Gardener',
        skills: ['Gardening', 'Painting'],
        availability: 'Weekends',
        paymentType: 'Cash',
        location: 'Denver CO',
        contacts: [{ value: 'wanda@example.test', visibility: 'public' }],
      },
    )
    if (profile.status !== 200) throw new Error(`worker profile: ${profile.status}`)
    const seed = await api.call('POST', '/api/jobs', worker.token, {
      title: SEED_TITLE,
      where: 'Austin TX',
      displayLocation: true,
    })
    if (seed.status !== 201) throw new Error(`seed post: ${seed.status}`)
    seedPostId = seed.body._id
    await waitFor(
      async () =>
        (await api.call('GET', `/api/jobs?search=${encodeURIComponent(SEED_TITLE)}&limit=10`)).body
          ?.jobs?.length > 0,
      { timeoutMs: 60_000, what: 'the seed post in the feed' },
    )
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  describe.each(WIDTHS)('at %s width', (width, viewport) => {
    it('a guest signs up, verifies, posts with a picture, is notified live, accepts; only the accepted worker sees the private contact', async () => {
      const suffix = randomBytes(3).toString('hex')
      const firstName = width === 'desktop' ? 'Dora' : 'Mona'
      const email = `${firstName}-${suffix}@example.test`.toLowerCase()
      const title = `Garden help ${width} ${suffix}`
      const contact = 'WhatsApp'
      // The method is public, its value private; typed with punctuation, stored as
      // ten digits, shown formatted to whoever may see it.
      const contactValue = '303-555-0142'
      const contactDigits = '3035550142'
      const contactShown = '(303) 555-0142'
      const location = 'Denver CO'
      const { context, page } = await newPage(browser, viewport)
      const shot = (name: string) => screenshot(page, `${width}-${name}`)
      const contexts = [context]
      try {
        await step(page, width, 'guest-feed', async () => {
          await page.goto(`${stack.site}/`)
          await expectVisible(
            page.getByRole('group', { name: 'Feed type' }),
            'the feed type toggle',
          )
          await expectVisible(
            page.getByRole('article', { name: SEED_TITLE }),
            'the seed post card in the feed',
          )
          await shot('01-guest-feed')
        })

        await step(page, width, 'signup', async () => {
          await page.goto(`${stack.site}/signup`)
          await expectVisible(
            page.getByRole('heading', { name: 'Create Account' }),
            '"Create Account"',
          )
          await page.getByLabel('First name').fill(firstName)
          await page.getByLabel('Last name').fill('Owner')
          await page.getByLabel('Email', { exact: true }).fill(email)
          await page.getByLabel('Phone number').fill('2125550147')
          await page.getByLabel('Date of birth').fill('1990-05-17')
          await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
          await page.getByLabel('Confirm password').fill(PASSWORD)
          await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check()
          expect(await page.getByLabel('Phone number').inputValue()).toBe('(212) 555-0147')
          await shot('02-signup-filled')
          await page.getByRole('button', { name: 'Create my account' }).click()
          await expectPath(page, '/verify')
          await expectVisible(
            page.getByRole('heading', { name: 'Email Verification' }),
            '"Email Verification"',
          )
        })

        await step(page, width, 'verify', async () => {
          const code = await mailedCode(email)
          await page.getByLabel('Verification code').fill(code)
          await page.getByRole('button', { name: 'Verify Email' }).click()
          await expectVisible(
            page.getByText('Email verified successfully! Redirecting to login...'),
            'the verification success message',
          )
          await shot('03-verified')
          await expectPath(page, '/login', 10_000)
        })

        await step(page, width, 'login', async () => {
          await logInThroughForm(page, email, PASSWORD)
          await expectPath(page, '/')
          await expectGreeting(page, width, firstName)
          // A marker that survives only as long as the page is not reloaded.
          await page.evaluate(() => {
            ;(globalThis as unknown as { journeyMarker: boolean }).journeyMarker = true
          })
          await shot('04-logged-in')
        })

        await step(page, width, 'make-a-post', async () => {
          const dialog = await openMakeAPost(page, width)
          await dialog.getByLabel(/^Title/).fill(title)
          await dialog.getByLabel(/^Where/).fill(location)
          await dialog.getByLabel('Contact', { exact: true }).selectOption(contact)
          await dialog.getByLabel(/^WhatsApp number/).fill(contactValue)
          // Location and contact are private by default; the journey keeps them so.
          expect(
            await dialog
              .getByRole('checkbox', { name: 'Show the location to everyone' })
              .isChecked(),
          ).toBe(false)
          expect(
            await dialog
              .getByRole('checkbox', { name: 'Show the contact to everyone' })
              .isChecked(),
          ).toBe(false)
          await dialog.getByLabel(/^Picture/).setInputFiles({
            name: 'garden.jpg',
            mimeType: 'image/jpeg',
            buffer: await photoJpeg(),
          })
          await expectVisible(
            dialog.getByText('Picture Uploaded', { exact: true }),
            '"Picture Uploaded"',
            30_000,
          )
          await shot('05-add-post-filled')
          await dialog.getByRole('button', { name: 'Add this post' }).click()
          await expectVisible(
            page.getByText('Post created successfully!'),
            '"Post created successfully!"',
          )
          await shot('06-post-created')
          await dialog.waitFor({ state: 'hidden', timeout: 10_000 })
        })

        // The card shows a WebP variant sized for its box, never the original.
        await step(page, width, 'card-picture-variant', async () => {
          const card = page.locator(`article[aria-label="${title}"]`)
          await waitFor(
            async () => {
              if ((await card.count()) > 0) return true
              await page.reload()
              return false
            },
            { timeoutMs: 60_000, what: `the card of "${title}" in the feed` },
          )
          const img = card.locator('img').first()
          await img.scrollIntoViewIfNeeded()
          // The test's TypeScript has no DOM library: the img as the fields read here.
          type Image = { complete: boolean; naturalWidth: number; currentSrc: string }
          await waitFor(
            () =>
              img.evaluate((element) => {
                const image = element as unknown as Image
                return image.complete && image.naturalWidth > 0
              }),
            { timeoutMs: 30_000, what: "the card's picture loaded" },
          )
          const source = await img.evaluate((element) => (element as unknown as Image).currentSrc)
          expect(source).toMatch(/\.w(480|960)\.webp$/)
          const bytes = (await (await fetch(source)).arrayBuffer()).byteLength
          console.log(`[${width}] card picture: ${source.split('/').pop()}, ${bytes} bytes`)
          expect(bytes).toBeLessThanOrEqual(100 * 1024)
        })

        const postId = await step(page, width, 'worker-requests-through-api', async () => {
          const id = await waitFor(
            async () => {
              const found = await api.call(
                'GET',
                `/api/jobs?search=${encodeURIComponent(title)}&limit=10`,
              )
              return (found.body?.jobs as Array<{ _id: string; title: string }> | undefined)?.find(
                (job) => job.title === title,
              )?._id
            },
            { timeoutMs: 60_000, what: `"${title}" in the jobs search` },
          )
          const sent = await api.call('POST', '/api/jobs/requests', worker.token, { postID: id })
          if (sent.status !== 201 && sent.status !== 200) {
            throw new Error(
              `POST /api/jobs/requests answered ${sent.status} ${JSON.stringify(sent.body)}`,
            )
          }
          return id
        })

        await step(page, width, 'live-notification', async () => {
          await expectVisible(
            page.getByRole('button', { name: 'Notifications, 1 unread' }),
            'the bell with 1 unread (live push over Socket.IO)',
            30_000,
          )
          expect(
            await page.evaluate(
              () => (globalThis as unknown as { journeyMarker?: boolean }).journeyMarker,
            ),
          ).toBe(true)
          await shot('07-bell-unread')
          await page.getByRole('button', { name: 'Notifications, 1 unread' }).click()
          const dropdown = page.getByRole('region', { name: 'Notifications' })
          await expectVisible(
            dropdown.getByText(`Wanda Worker sent a request for your post "${title}"`),
            'the request notification in the dropdown',
          )
          await shot('08-bell-open')
          await page.keyboard.press('Escape')
          await dropdown.waitFor({ state: 'hidden' })
        })

        await step(page, width, 'accept-request', async () => {
          await openSettings(page, width)
          await chooseSettingsEntry(
            page,
            width,
            'Requests on my posts',
            '/settings-employer-requests',
          )
          const row = page.getByRole('listitem').filter({ hasText: title })
          await expectVisible(row.getByText('is requesting for'), `the request row for "${title}"`)
          await expectVisible(
            row.getByRole('button', { name: 'Wanda Worker' }),
            'the requester name',
          )
          await shot('09-requests-on-my-posts')
          await row.getByRole('button', { name: 'Accept', exact: true }).click()
          await expectVisible(
            row.getByText('Accepted', { exact: true }),
            'the status label "Accepted"',
          )
          await expectVisible(
            row.getByRole('button', { name: 'Undo decision' }),
            "the 'Undo decision' button",
          )
          await shot('10-request-accepted')
        })

        // The accepted worker, in their own browser context, logs in and sees the contact.
        const workerSide = await newPage(browser, viewport)
        contexts.push(workerSide.context)
        const wpage = workerSide.page
        await step(wpage, width, 'worker-sees-private-contact', async () => {
          await wpage.goto(`${stack.site}/login`)
          await logInThroughForm(wpage, worker.email, worker.password)
          await expectPath(wpage, '/')
          await expectGreeting(wpage, width, 'Wanda')
          // The decision reached the worker too (stored, so it is there at login).
          await wpage.getByRole('button', { name: /^Notifications,/ }).click()
          await expectVisible(
            wpage
              .getByRole('region', { name: 'Notifications' })
              .getByText(`Your request for "${title}" was accepted`),
            'the "request accepted" notification in the worker\'s bell',
          )
          await screenshot(wpage, `${width}-11a-worker-notified`)
          await wpage.keyboard.press('Escape')
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
            details.getByText(contactShown, { exact: true }),
            `the private contact "${contactShown}"`,
          )
          await expectVisible(
            details.getByRole('button', { name: /^Copy WhatsApp number/ }),
            'the copy button beside the contact',
          )
          await expectVisible(
            details.getByText(location, { exact: true }),
            `the private location "${location}"`,
          )
          await screenshot(wpage, `${width}-11b-worker-sees-contact`)
        })
        const asWorker = await api.call('GET', `/api/jobs/${postId}`, worker.token)
        expect(asWorker.body).toMatchObject({ contact, contactValue: contactDigits, location })

        // A third party does not: the server sends neither the method nor the value.
        const anonymous = await api.call('GET', `/api/jobs/${postId}`)
        expect(anonymous.status).toBe(200)
        expect(anonymous.body.contact).toBeNull()
        expect(anonymous.body.contactValue).toBeNull()
        expect(JSON.stringify(anonymous.body)).not.toContain(contactDigits)
        expect(anonymous.body.location).toBeNull()
        const guestSide = await newPage(browser, viewport)
        contexts.push(guestSide.context)
        const gpage = guestSide.page
        await step(gpage, width, 'guest-does-not-see-contact', async () => {
          await gpage.goto(`${stack.site}/`)
          const card = gpage.getByRole('article', { name: title })
          await expectVisible(card, `the post "${title}" in the guest's feed`)
          await card.getByRole('button', { name: 'Details', exact: true }).click()
          const details = gpage.getByRole('dialog', { name: title })
          await expectVisible(details.getByLabel(/^Contact hidden/), 'the masked contact')
          expect(await details.textContent()).not.toContain(contactShown)
          expect(await details.textContent()).not.toContain(contact)
          expect(await details.textContent()).not.toContain(location)
          await screenshot(gpage, `${width}-12-guest-contact-masked`)
        })
      } finally {
        await Promise.all(contexts.map((c) => c.close()))
      }
    }, 240_000)

    it('has no serious accessibility violations on the main screens', async () => {
      const ledger = new AccessibilityLedger()
      const member = await api.member(width === 'desktop' ? 'Alma' : 'Aldo', 'Access')
      const { context, page } = await newPage(browser, viewport)
      const shot = (name: string) => screenshot(page, `${width}-a11y-${name}`)
      try {
        await step(page, width, 'a11y-guest-screens', async () => {
          await page.goto(`${stack.site}/`)
          await expectVisible(
            page.getByRole('article', { name: SEED_TITLE }),
            'the feed with the seed post',
          )
          await ledger.check(page, `${width} home feed (guest)`)
          await shot('home-guest')
          await page.goto(`${stack.site}/login`)
          await expectVisible(page.getByRole('heading', { name: 'Log in' }), '"Log in"')
          await ledger.check(page, `${width} /login`)
          await shot('login')
          await page.goto(`${stack.site}/signup`)
          await expectVisible(
            page.getByRole('heading', { name: 'Create Account' }),
            '"Create Account"',
          )
          await ledger.check(page, `${width} /signup`)
          await shot('signup')
        })
        await step(page, width, 'a11y-signed-in-screens', async () => {
          await page.goto(`${stack.site}/login`)
          await logInThroughForm(page, member.email, member.password)
          await expectPath(page, '/')
          await expectVisible(
            page.getByRole('article', { name: SEED_TITLE }),
            'the feed with the seed post',
          )
          await ledger.check(page, `${width} home feed (signed in)`)
          await shot('home-signed-in')

          const dialog = await openMakeAPost(page, width)
          await ledger.check(page, `${width} add-post modal`)
          await shot('add-post')
          await dialog.getByRole('button', { name: 'Close' }).click()
          await dialog.waitFor({ state: 'hidden' })

          await page.getByRole('button', { name: /^Notifications,/ }).click()
          await expectVisible(
            page.getByRole('region', { name: 'Notifications' }),
            'the notification dropdown',
          )
          await expectVisible(page.getByText('No notifications'), '"No notifications"')
          await ledger.check(page, `${width} notification dropdown`)
          await shot('notifications')
          await page.keyboard.press('Escape')

          await openSettings(page, width)
          await expectVisible(
            page.getByRole('heading', { name: 'Account', exact: true }),
            'the Account heading',
          )
          await ledger.check(page, `${width} /settings-account`)
          await shot('settings-account')
        })
      } finally {
        await context.close()
      }
      ledger.assertClean()
    }, 180_000)

    it('every settings page through the sidebar, the login redirect and the moderation guard', async () => {
      const ledger = new AccessibilityLedger()
      const problems: string[] = []
      const member = await api.member(width === 'desktop' ? 'Seth' : 'Sara', 'Settings')
      // A report, so that the administrator's queue has something in it.
      await waitFor(
        async () =>
          [201, 409].includes(
            (
              await api.call('POST', '/api/reports/posts', member.token, {
                postId: seedPostId,
                type: 'scam',
                description: `Reported by the ${width} journey`,
              })
            ).status,
          ),
        { timeoutMs: 60_000, what: 'the seed post known to reports' },
      )
      const { context, page } = await newPage(browser, viewport)
      const contexts = [context]
      // Every part runs even when an earlier one failed; the test fails once, listing all.
      const attempt = async (action: () => Promise<void>) => {
        try {
          await action()
        } catch (error) {
          problems.push(error instanceof Error ? error.message : String(error))
        }
      }
      try {
        const signedIn = problems.length
        await attempt(() =>
          step(page, width, 'settings-login-redirect', async () => {
            await page.goto(`${stack.site}/settings-account`)
            await expectPath(page, '/login')
            await screenshot(page, `${width}-settings-00-redirected-to-login`)
            // Kept signed in: the direct visit of /settings-moderation below reloads the app.
            await logInThroughForm(page, member.email, member.password, { keepSignedIn: true })
            await expectPath(page, '/settings-account')
          }),
        )

        // Not in the settings area, or its sidebar gone twice in a row: the rest would only
        // time out one by one.
        let unreachable = problems.length > signedIn ? 2 : 0
        for (const [index, entry] of SETTINGS_PAGES.entries()) {
          if (unreachable >= 2) {
            problems.push(`[${width}] ${entry.label} (${entry.route}): not visited, see above`)
            continue
          }
          const name = `settings-${String(index + 1).padStart(2, '0')}-${slugOf(entry.route)}`
          let failed = false
          try {
            try {
              await chooseSettingsEntry(page, width, entry.label, entry.route)
              unreachable = 0
            } catch (error) {
              unreachable += 1
              throw error
            }
            await expectVisible(entry.find(page), `${entry.what} on ${entry.route}`, 5_000)
          } catch (error) {
            failed = true
            const reason = error instanceof Error ? error.message : String(error)
            problems.push(`[${width}] ${entry.label} (${entry.route}): ${reason}`)
          }
          if (new URL(page.url()).pathname === entry.route) {
            await ledger.check(page, `${width} ${entry.route}`)
          }
          await screenshot(page, `${width}-${name}${failed ? '-FAILED' : ''}`)
        }

        await attempt(() =>
          step(page, width, 'no-moderation-for-members', async () => {
            const nav = await settingsNav(page, width)
            expect(await nav.getByRole('link', { name: 'Moderation' }).count()).toBe(0)
            await page.goto(`${stack.site}/settings-moderation`)
            await expectPath(page, '/unauthorized')
            await expectVisible(
              page.getByRole('heading', { name: 'Unauthorized Access' }),
              '"Unauthorized Access"',
            )
            await expectVisible(
              page.getByRole('button', { name: 'Return to Home' }),
              '"Return to Home"',
            )
            await screenshot(page, `${width}-settings-90-unauthorized`)
          }),
        )

        const adminSide = await newPage(browser, viewport)
        contexts.push(adminSide.context)
        const apage = adminSide.page
        await attempt(() =>
          step(apage, width, 'admin-moderation', async () => {
            await apage.goto(`${stack.site}/login`)
            await logInThroughForm(apage, stack.admin.email, stack.admin.password)
            await expectPath(apage, '/')
            await openSettings(apage, width)
            await chooseSettingsEntry(apage, width, 'Moderation', '/settings-moderation')
            await expectVisible(
              apage.getByRole('heading', { name: 'Moderation', exact: true }),
              'the Moderation heading',
            )
            await expectVisible(
              apage.getByRole('list', { name: 'Open reports' }).getByText(SEED_TITLE),
              'the reported seed post in the queue',
            )
            await ledger.check(apage, `${width} /settings-moderation`)
            await screenshot(apage, `${width}-settings-91-moderation`)
          }),
        )
      } finally {
        await Promise.all(contexts.map((c) => c.close()))
      }
      const axe = ledger.report()
      if (problems.length > 0 || axe) {
        throw new Error(
          [
            problems.length ? `journey problems:\n  ${problems.join('\n  ')}` : '',
            axe ? `serious accessibility violations:\n${axe}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        )
      }
    }, 240_000)
  })
})
