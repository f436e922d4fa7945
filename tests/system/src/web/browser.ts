import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** Screenshots of every journey step, for people to look at (git-ignored). */
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'screenshots')

export const DESKTOP = { width: 1280, height: 860 }
/** 768 px is still mobile. */
export const MOBILE = { width: 768, height: 1024 }

/** Debian's Chromium (scripts/test.sh installs it); Playwright's own download is not reachable. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  })
}

export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  // bypassCSP only so axe-core can be injected as a script; the app itself runs under the
  // gateway's real CSP in every other respect (the header is still sent and checked by the
  // gateway's own tests).
  const context = await browser.newContext({ viewport, bypassCSP: true })
  const page = await context.newPage()
  page.setDefaultTimeout(20_000)
  return { context, page }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const file = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: unknown[] }>
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource })
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }
    ).axe
    const result = await axe.run()
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }))
  })
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
