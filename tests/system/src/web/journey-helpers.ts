import type { Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { screenshot, seriousAccessibilityViolations, type AxeViolation } from './browser'

/** The widths every journey runs at: the name prefixes its screenshots. */
export type WidthName = 'desktop' | 'mobile'

/** A real 1x1 PNG (one opaque pixel), the picture a journey uploads. */
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * A photo as a phone would upload it: 2400 x 1800 JPEG of soft, varied colour (blurred noise),
 * around a megabyte, so the cards' download of its small variant means something.
 */
export async function photoJpeg(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 2400,
      height: 1800,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer()
  return sharp(noise).blur(4).jpeg({ quality: 90 }).toBuffer()
}

/**
 * One step of a journey: on failure a screenshot `<width>-<name>-FAILED.png` is kept and
 * the error names the step, so a red run says where the journey broke.
 */
export async function step<T>(
  page: Page,
  width: WidthName,
  name: string,
  action: () => Promise<T>,
): Promise<T> {
  try {
    return await action()
  } catch (error) {
    await screenshot(page, `${width}-${name}-FAILED`).catch(() => undefined)
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`[${width}] step "${name}" failed (at ${page.url()}): ${reason}`)
  }
}

/** Waits until the locator is visible, failing with a message that says what was missing. */
export async function expectVisible(
  locator: Locator,
  what: string,
  timeout = 20_000,
): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout })
  } catch {
    throw new Error(`expected to see ${what} within ${timeout / 1000}s`)
  }
}

/** Waits until the page's path is `path` (the SPA navigates without reloading). */
export async function expectPath(page: Page, path: string, timeout = 20_000): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout })
  } catch {
    throw new Error(`expected to be on ${path} within ${timeout / 1000}s, is on ${page.url()}`)
  }
}

/** The serious axe findings, one line each: rule, help text and the offending targets. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `  - ${v.id} (${v.impact}): ${v.help}\n      targets: ${v.nodes
          .map((n) => JSON.stringify(n.target))
          .join(', ')}`,
    )
    .join('\n')
}

/**
 * Collects axe findings screen after screen, so one bad screen does not hide the others;
 * `assertClean()` fails once, at the end, listing all of them.
 */
export class AccessibilityLedger {
  private readonly findings: Array<{ screen: string; violations: AxeViolation[] }> = []

  async check(page: Page, screen: string): Promise<AxeViolation[]> {
    // The screen as people read it, not its "Loading..." moment.
    await page
      .getByRole('status')
      .filter({ hasText: /^Loading/ })
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined)
    const violations = await seriousAccessibilityViolations(page)
    if (violations.length > 0) {
      // The targets are generated ids (useId): the markup says which element they are.
      for (const violation of violations) {
        for (const node of violation.nodes) {
          const selector = node.target.map(String).join(' ')
          const html = await page
            .evaluate(
              (css) =>
                (
                  globalThis as unknown as {
                    document: { querySelector(css: string): { outerHTML: string } | null }
                  }
                ).document.querySelector(css)?.outerHTML ?? '',
              selector,
            )
            .catch(() => '')
          node.target = [selector, html.slice(0, 240)]
        }
      }
      this.findings.push({ screen, violations })
      console.warn(`axe on ${screen}:\n${describeViolations(violations)}`)
    }
    return violations
  }

  report(): string {
    return this.findings
      .map(({ screen, violations }) => `${screen}:\n${describeViolations(violations)}`)
      .join('\n')
  }

  assertClean(): void {
    if (this.findings.length > 0) {
      throw new Error(`serious accessibility violations:\n${this.report()}`)
    }
  }
}

/** Logs in through /login (the page must already show the form). */
export async function logInThroughForm(
  page: Page,
  email: string,
  password: string,
  options: { keepSignedIn?: boolean } = {},
): Promise<void> {
  await expectVisible(
    page.getByRole('heading', { name: 'Log in', exact: true }),
    'the "Log in" page',
  )
  const emailField = page.getByLabel('Email', { exact: true })
  if ((await emailField.inputValue()) !== email) await emailField.fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  if (options.keepSignedIn) {
    await page.getByRole('checkbox', { name: 'Keep me signed in' }).check()
  }
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
}

/**
 * "Hello {first name}": on desktop the user-menu button of the top bar; at 768 px the
 * greeting sits in the hamburger menu, which is opened to read it and closed again.
 */
export async function expectGreeting(page: Page, width: WidthName, firstName: string) {
  const greeting = `Hello ${firstName}`
  if (width === 'desktop') {
    await expectVisible(
      page.getByRole('button', { name: greeting }),
      `"${greeting}" in the top bar`,
    )
    return
  }
  await page.getByRole('button', { name: 'Open menu' }).click()
  await expectVisible(page.getByText(greeting, { exact: true }), `"${greeting}" in the mobile menu`)
  await page.getByRole('button', { name: 'Close menu' }).click()
}

/** Opens the settings area through the app's own menus, without reloading the page. */
export async function openSettings(page: Page, width: WidthName): Promise<void> {
  if (width === 'desktop') {
    await page.getByRole('button', { name: /^Hello / }).click()
    await page
      .getByRole('list', { name: 'User menu' })
      .getByRole('link', { name: 'Settings' })
      .click()
  } else {
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page
      .getByRole('navigation', { name: 'Menu' })
      .getByRole('link', { name: 'Settings' })
      .click()
  }
  await expectPath(page, '/settings-account')
}

/** The settings sidebar's navigation; on mobile (collapsed) it is opened first. */
export async function settingsNav(page: Page, width: WidthName): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Settings' })
  if (width === 'mobile' && !(await nav.isVisible())) {
    const toggle = page.getByRole('button', { name: 'Settings menu' })
    await expectVisible(toggle, 'the "Settings menu" toggle of the collapsed sidebar', 10_000)
    await toggle.click()
  }
  await expectVisible(nav, 'the settings sidebar navigation', 10_000)
  return nav
}

/** Chooses a settings sidebar entry by its label and waits for its route. */
export async function chooseSettingsEntry(
  page: Page,
  width: WidthName,
  label: string,
  route: string,
): Promise<void> {
  const nav = await settingsNav(page, width)
  const link = nav.getByRole('link', { name: label, exact: true })
  await expectVisible(link, `the sidebar entry "${label}"`, 10_000)
  await link.click()
  await expectPath(page, route)
}

/** "Make a post": the user menu on desktop, the bottom navigation's Create at 768 px. */
export async function openMakeAPost(page: Page, width: WidthName): Promise<Locator> {
  if (width === 'desktop') {
    await page.getByRole('button', { name: /^Hello / }).click()
    await page.getByRole('button', { name: 'Make a post' }).click()
  } else {
    await page
      .getByRole('navigation', { name: 'Mobile navigation' })
      .getByRole('button', { name: 'Create' })
      .click()
  }
  const dialog = page.getByRole('dialog', { name: 'Add a post' })
  await expectVisible(dialog, 'the "Add a post" dialog')
  return dialog
}
