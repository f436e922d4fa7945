import { paths } from './paths'

/**
 * The headings of the pages whose heading is fixed text. The pages render them, and the web
 * app's build lists them by address (build/route-preloads.ts) for the gateway, which puts the
 * heading in that address's HTML: the page's largest text paints with the HTML, before the
 * app's scripts have loaded and run (largest contentful paint on a phone). Imported
 * by the build too: relative imports only.
 */
export const PAGE_HEADINGS = {
  account: 'Account',
  security: 'Security',
  notifications: 'Notifications',
  helpSupport: 'Help & Support',
} as const

export const HEADING_BY_ADDRESS: Readonly<Record<string, string>> = {
  [paths.settings.account]: PAGE_HEADINGS.account,
  [paths.settings.security]: PAGE_HEADINGS.security,
  [paths.settings.notifications]: PAGE_HEADINGS.notifications,
  [paths.settings.helpSupport]: PAGE_HEADINGS.helpSupport,
}
