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

/**
 * A page's first section where its words are fixed text too: on Settings > Account, the home
 * place's title and hint. The hint is what a phone paints largest on that page, larger than
 * the heading, so with the heading alone its largest paint still waited for the page's
 * scripts (several round trips on a slow network). The gateway puts this section under the
 * heading in the HTML, in the page's own classes; the page shows the same words from here.
 */
export const HOME_PLACE_SECTION = {
  title: 'Home place',
  hint: 'The feed shows what is within your chosen distance of it. Only you see it.',
} as const

export type PageSection = { title: string; hint: string }

export const SECTION_BY_ADDRESS: Readonly<Record<string, PageSection>> = {
  [paths.settings.account]: HOME_PLACE_SECTION,
}
