import { randomBytes } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'
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

// Saved searches in Chromium against the full stack (docs/saved-searches.md): a member saves
// the home page's search with a name, another member posts a matching job, the bell rings
// with the alert and its e-mail arrives (Mailpit's API), with the RFC 8058 headers; the
// e-mail's link stops the e-mails without signing in. Every service its own process.

interface MailSummary {
  ID: string
  Subject: string
}

async function mailsTo(address: string): Promise<MailSummary[]> {
  const { mailApiUrl } = infraEnv()
  const answer = await fetch(
    `${mailApiUrl}/api/v1/search?query=${encodeURIComponent(`to:${address}`)}`,
  )
  return ((await answer.json()) as { messages: MailSummary[] }).messages
}

describe('saved searches in Chromium against the full stack', () => {
  let stack: FullStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startFullStack('savedsearch')
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('saves a search, is told of a matching post in the bell and by e-mail, and unsubscribes from the e-mail', async () => {
    const api = siteClient(stack.site)
    const seeker = await api.member('Sadie', 'Seeker')
    const poster = await api.member('Paul', 'Poster')
    const searchName = `All jobs ${randomBytes(3).toString('hex')}`
    const { context, page } = await newPage(browser, DESKTOP)
    try {
      await step(page, 'desktop', 'save-the-search', async () => {
        await page.goto(`${stack.site}/login`)
        await logInThroughForm(page, seeker.email, seeker.password)
        await expectPath(page, '/')
        await expectGreeting(page, 'desktop', 'Sadie')
        await page.getByRole('button', { name: 'Save this search' }).click()
        const name = page.getByLabel('Name this search')
        await name.fill(searchName)
        await page.getByRole('button', { name: 'Save', exact: true }).click()
        await expectVisible(
          page.getByRole('status').filter({ hasText: `Saved “${searchName}”` }),
          'the saved confirmation',
        )
        await screenshot(page, 'desktop-saved-search-01-saved')
      })

      const title = `Move a piano ${randomBytes(3).toString('hex')}`
      const created = await api.call('POST', '/api/jobs', poster.token, {
        title,
        where: 'Austin TX',
      })
      expect(created.status).toBe(201)
      const told = `New post for your saved search "${searchName}": "${title}"`

      await step(page, 'desktop', 'the-bell-rings', async () => {
        // The live push raises the count; the dropdown lists the alert.
        await waitFor(
          async () => {
            const bell = page.getByRole('button', { name: /^Notifications,/ })
            await bell.click()
            // The list loads after the dropdown opens: give it time before closing.
            const found = await page
              .getByRole('region', { name: 'Notifications' })
              .getByText(told)
              .waitFor({ state: 'visible', timeout: 10_000 })
              .then(
                () => true,
                () => false,
              )
            await page.keyboard.press('Escape')
            return found
          },
          { timeoutMs: 60_000, what: 'the alert in the bell' },
        )
        await screenshot(page, 'desktop-saved-search-02-bell')
      })

      const { mailApiUrl } = infraEnv()
      const [mail] = await waitFor(
        async () => {
          const found = (await mailsTo(seeker.email)).filter((m) => m.Subject === told)
          return found.length > 0 && found
        },
        { timeoutMs: 60_000, what: 'the alert e-mail' },
      )
      const headers = (await (
        await fetch(`${mailApiUrl}/api/v1/message/${mail!.ID}/headers`)
      ).json()) as Record<string, string[]>
      expect(headers['List-Unsubscribe-Post']).toEqual(['List-Unsubscribe=One-Click'])
      expect(headers['List-Unsubscribe']?.[0]).toMatch(
        /^<.+\/api\/notifications\/saved-searches\/unsubscribe\?token=[^>]+>$/,
      )
      const { Text } = (await (await fetch(`${mailApiUrl}/api/v1/message/${mail!.ID}`)).json()) as {
        Text: string
      }
      // The link names the app's public address; the stack's gateway serves the same paths.
      const link = Text.match(/https?:\/\/\S+(\/saved-searches\/unsubscribe\?token=\S+)/)?.[1]
      expect(link).toBeDefined()

      // Signed out, as from a mail client on another device.
      const signedOut = await newPage(browser, DESKTOP)
      try {
        await step(signedOut.page, 'desktop', 'unsubscribe-from-the-mail', async () => {
          await signedOut.page.goto(`${stack.site}${link}`)
          await expectVisible(
            signedOut.page.getByRole('heading', { name: 'Stop e-mails for a saved search' }),
            'the unsubscribe page',
          )
          await signedOut.page.getByRole('button', { name: 'Stop these e-mails' }).click()
          await expectVisible(
            signedOut.page.getByText(`You will get no more e-mails for “${searchName}”`),
            'the unsubscribed confirmation',
          )
          await screenshot(signedOut.page, 'desktop-saved-search-03-unsubscribed')
        })
      } finally {
        await signedOut.context.close()
      }

      await step(page, 'desktop', 'settings-shows-no-email', async () => {
        await openSettings(page, 'desktop')
        await chooseSettingsEntry(page, 'desktop', 'Saved searches', '/settings-saved-searches')
        await expectVisible(page.getByRole('link', { name: searchName }), 'the saved search')
        expect(await page.getByLabel(`E-mail for ${searchName}`).inputValue()).toBe('off')
        await screenshot(page, 'desktop-saved-search-04-settings')
      })
    } finally {
      await context.close()
    }
  }, 600_000)
})
