import type { Browser } from 'playwright-core'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import { expectPath, expectVisible, logInThroughForm, step } from './web/journey-helpers'

// Two-step sign-in in Debian's Chromium against the whole stack: the Security page's Email
// checkbox turns e-mail two-step sign-in on (with the password asked again), and the next
// login stops at the code mailed to the user, then signs in with it.

const SIGN_IN_SUBJECT = 'Your Marketplace sign-in code'

/** The code of the newest sign-in mail to `email` (the verification mail came before it). */
function signInCode(email: string): Promise<string> {
  const { mailApiUrl } = infraEnv()
  return waitFor(
    async () => {
      const search = await fetch(`${mailApiUrl}/api/v1/search?query=to:${email}`)
      const { messages } = (await search.json()) as {
        messages: Array<{ ID: string; Subject: string }>
      }
      const mail = messages.find((m) => m.Subject === SIGN_IN_SUBJECT)
      if (!mail) return undefined
      const full = (await (await fetch(`${mailApiUrl}/api/v1/message/${mail.ID}`)).json()) as {
        Text: string
      }
      return full.Text.match(/\b(\d{6})\b/)?.[1]
    },
    { timeoutMs: 30_000, what: `the sign-in code mailed to ${email}` },
  )
}

describe('two-step sign-in by e-mail in Chromium', () => {
  let stack: FullStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startFullStack('two-step')
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('turns e-mail codes on from the Security page, then signs in with the mailed code', async () => {
    const member = await siteClient(stack.site).member('Tess', 'Twostep')

    const first = await newPage(browser, DESKTOP)
    try {
      await step(first.page, 'desktop', 'two-step-turn-on', async () => {
        await first.page.goto(`${stack.site}/login`)
        await logInThroughForm(first.page, member.email, member.password, { keepSignedIn: true })
        await expectPath(first.page, '/')
        await first.page.goto(`${stack.site}/settings-security`)
        const box = first.page.getByRole('checkbox', {
          name: 'Send me a code by email when I sign in',
        })
        await expectVisible(box, 'the Email checkbox')
        await box.click()
        await first.page.getByLabel('Password', { exact: true }).fill(member.password)
        await first.page.getByRole('button', { name: 'Confirm' }).click()
        await expectVisible(
          first.page.getByRole('status').filter({ hasText: 'Two-step sign-in by email is on.' }),
          'the confirmation',
        )
        await screenshot(first.page, 'desktop-two-step-on')
      })
    } finally {
      await first.context.close()
    }

    // A new browser: the password alone no longer signs in.
    const second = await newPage(browser, DESKTOP)
    try {
      await step(second.page, 'desktop', 'two-step-sign-in', async () => {
        await second.page.goto(`${stack.site}/login`)
        await logInThroughForm(second.page, member.email, member.password, { keepSignedIn: true })
        const field = second.page.getByLabel('Code from your email')
        await expectVisible(field, 'the code prompt')
        expect(
          (await second.context.cookies(stack.site)).some((c) => c.name === 'refresh_token'),
        ).toBe(false)
        await field.fill(await signInCode(member.email))
        await second.page.getByRole('button', { name: 'Verify' }).click()
        await expectPath(second.page, '/')
        await expectVisible(
          second.page.getByRole('button', { name: 'Hello Tess' }),
          '"Hello Tess" in the top bar',
        )
        // "Keep me signed in" still applies after the second step: a lasting cookie.
        const refresh = (await second.context.cookies(stack.site)).find(
          (c) => c.name === 'refresh_token',
        )
        expect(refresh?.expires ?? -1).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600)
        await screenshot(second.page, 'desktop-two-step-signed-in')
      })
    } finally {
      await second.context.close()
    }
  }, 240_000)
})
