import type { Browser, Page } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import {
  expectPath,
  expectVisible,
  logInThroughForm,
  openSettings,
  step,
} from './web/journey-helpers'

// In Debian's Chromium against the whole stack:
// without "Keep me signed in" a session lasts as long as its access token, then /login says
// so and returns the user to their page; with it, the session is renewed and goes on.
//
// auth issues access tokens that live ACCESS_TOKEN_TTL_SECONDS. More than a minute: the live
// connection asks for a renewal a minute before a token expires (LIVE_CONNECTION
// .tokenExpiringLeadMs), so a kept session on a shorter token would renew without pause.
// The two journeys run side by side, so the file waits for one token lifetime, not two.
const ACCESS_TOKEN_TTL_SECONDS = 65
const TTL_MS = ACCESS_TOKEN_TTL_SECONDS * 1000
const ACCOUNT = '/settings-account'
const ENDED = 'Your session has ended because "Keep me signed in" was not checked.'

type Member = Awaited<ReturnType<ReturnType<typeof siteClient>['member']>>

/** Every call the page makes to the renewal endpoint, with its answer's status. */
function watchRenewals(page: Page): number[] {
  const statuses: number[] = []
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/auth/refresh') statuses.push(response.status())
  })
  return statuses
}

/** Every path the page showed, history navigations included. */
function watchPaths(page: Page): string[] {
  const seen: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(new URL(frame.url()).pathname)
  })
  return seen
}

describe('sessions and "Keep me signed in" in Chromium', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>
  let unkept: Member
  let kept: Member

  beforeAll(async () => {
    stack = await startFullStack('session', {
      env: { auth: { ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS) } },
    })
    browser = await launchChromium()
    api = siteClient(stack.site)
    ;[unkept, kept] = await Promise.all([api.member('Una', 'Unkept'), api.member('Kim', 'Kept')])
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  /**
   * Journey A: logged in without "Keep me signed in", on the account page. At the token's
   * expiry the app is on /login with the message, nothing was renewed and the refresh cookie
   * is gone; logging in again returns to the account page.
   */
  async function unkeptJourney(): Promise<void> {
    const { context, page } = await newPage(browser, DESKTOP)
    const renewals = watchRenewals(page)
    try {
      const loggedInAt = await step(page, 'desktop', 'session-a-login', async () => {
        await page.goto(`${stack.site}/login`)
        await logInThroughForm(page, unkept.email, unkept.password)
        await expectPath(page, '/')
        return Date.now()
      })

      await step(page, 'desktop', 'session-a-account', async () => {
        // Through the app's menus: a reload would end a session that is not kept at once.
        await openSettings(page, 'desktop')
        await expectVisible(
          page.getByRole('button', { name: 'Edit my account' }),
          'the account page',
        )
      })

      await step(page, 'desktop', 'session-a-expired', async () => {
        await expectPath(page, '/login', TTL_MS + 20_000)
        const after = Date.now() - loggedInAt
        // Not before the token's end (the login's own round trip is the margin).
        expect(after).toBeGreaterThanOrEqual(TTL_MS - 2_000)
        await expectVisible(
          page.getByRole('status').filter({ hasText: ENDED }),
          'the message that the session ended',
        )
        expect(renewals).toEqual([])
        // Ended as a sign-out ends it: GET /logout revoked the session and cleared its cookie.
        await waitFor(
          async () =>
            !(await context.cookies(stack.site)).some((cookie) => cookie.name === 'refresh_token'),
          { timeoutMs: 10_000, what: 'the refresh cookie cleared' },
        )
        await screenshot(page, 'desktop-session-a-expired')
      })

      await step(page, 'desktop', 'session-a-login-again', async () => {
        await logInThroughForm(page, unkept.email, unkept.password)
        await expectPath(page, ACCOUNT)
        await expectVisible(
          page.getByRole('button', { name: 'Edit my account' }),
          'the account page',
        )
        expect(renewals).toEqual([])
      })
    } finally {
      await context.close()
    }
  }

  /**
   * Journey B: logged in with "Keep me signed in", on the account page. Past the first
   * token's expiry the page is still there and saving the account works: the session was
   * renewed, and /login never appeared.
   */
  async function keptJourney(): Promise<void> {
    const { context, page } = await newPage(browser, DESKTOP)
    const renewals = watchRenewals(page)
    const paths = watchPaths(page)
    try {
      const loggedInAt = await step(page, 'desktop', 'session-b-login', async () => {
        await page.goto(`${stack.site}/login`)
        await logInThroughForm(page, kept.email, kept.password, { keepSignedIn: true })
        await expectPath(page, '/')
        return Date.now()
      })
      const shownAtLogin = paths.length

      await step(page, 'desktop', 'session-b-account', async () => {
        await openSettings(page, 'desktop')
        await expectVisible(
          page.getByRole('button', { name: 'Edit my account' }),
          'the account page',
        )
      })

      await step(page, 'desktop', 'session-b-past-expiry', async () => {
        await page.waitForTimeout(Math.max(0, loggedInAt + TTL_MS + 3_000 - Date.now()))
        expect(new URL(page.url()).pathname).toBe(ACCOUNT)
        await page.getByRole('button', { name: 'Edit my account' }).click()
        await page.getByLabel('Name', { exact: true }).fill('Kim Renewed')
        await page.getByRole('button', { name: 'Save Changes' }).click()
        await expectVisible(
          page.getByRole('status').filter({ hasText: 'Your account has been updated.' }),
          'the account saved',
        )
        await screenshot(page, 'desktop-session-b-saved')
      })

      const { token } = await api.login(kept.email, kept.password)
      const profile = await api.call('GET', `/api/users/${kept.userId}`, token)
      expect(profile.body).toMatchObject({ firstName: 'Kim', lastName: 'Renewed' })
      expect(renewals.length).toBeGreaterThanOrEqual(1)
      expect(renewals.every((status) => status === 200)).toBe(true)
      expect(paths.slice(shownAtLogin)).not.toContain('/login')
    } finally {
      await context.close()
    }
  }

  it('without "Keep me signed in" the session ends with its token and login returns to the page; with it, the session is renewed', async () => {
    const outcomes = await Promise.allSettled([unkeptJourney(), keptJourney()])
    const failures = outcomes.flatMap((outcome, index) =>
      outcome.status === 'rejected'
        ? [`journey ${index === 0 ? 'A (not kept)' : 'B (kept)'}: ${String(outcome.reason)}`]
        : [],
    )
    if (failures.length > 0) throw new Error(failures.join('\n'))
  }, 150_000)
})
