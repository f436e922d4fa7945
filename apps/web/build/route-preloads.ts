import type { Plugin } from 'vite'
import { HEADING_BY_ADDRESS, SECTION_BY_ADDRESS, type PageSection } from '../src/config/page-headings'

/**
 * What the page at each address loads before its first render besides the app's own
 * scripts (boot.tsx: `preloadRoute`, and on / the first feed page's seeding), by source
 * module: its page chunks, outermost first. The router's routes are the truth;
 * src/app/route-preloads.test.ts checks this table names what they render.
 */
const SETTINGS = 'src/features/settings/SettingsLayout.tsx'
const settings = (page: string) => [SETTINGS, `src/features/${page}.tsx`]
export const ROUTE_MODULES: Record<string, string[]> = {
  '/': ['src/features/feed/HomePage.tsx', 'src/features/feed/first-feed-page.ts'],
  '/login': ['src/features/auth/pages/LoginPage.tsx'],
  '/signup': ['src/features/auth/pages/SignupPage.tsx'],
  '/verify': ['src/features/auth/pages/VerifyPage.tsx'],
  '/forgot-password': ['src/features/auth/pages/ForgotPasswordPage.tsx'],
  '/unauthorized': ['src/app/shell/UnauthorizedPage.tsx'],
  '/terms': ['src/features/static/TermsPage.tsx'],
  '/about': ['src/features/static/AboutPage.tsx'],
  '/help': ['src/features/static/HelpPage.tsx'],
  '/contact-us': ['src/features/static/ContactUsPage.tsx'],
  '/settings-account': settings('settings/account/AccountPage'),
  '/settings-my-worker-profile': settings('settings/worker-profile/MyWorkerProfilePage'),
  '/settings-employer-jobs': settings('posts/my-posts/MyPostsPage'),
  '/settings-worker-job-requested': settings('requests/SentPostRequestsPage'),
  '/settings-employer-requests': settings('requests/ReceivedPostRequestsPage'),
  '/settings-employer-workers-requested': settings('requests/SentPeopleRequestsPage'),
  '/settings-worker-requested-for': settings('requests/ReceivedPeopleRequestsPage'),
  '/settings-favorite-workers': settings('favorites/FavoritePeoplePage'),
  '/settings-favorite-jobs': settings('favorites/FavoritePostsPage'),
  '/settings-security': settings('settings/security/SecurityPage'),
  '/settings-notifications': settings(
    'settings/notification-preferences/NotificationPreferencesPage',
  ),
  '/settings-help-support': settings('settings/help-support/HelpSupportPage'),
  '/settings-others': settings('settings/others/OthersPage'),
  '/settings-employer-stats': settings('stats/StatsPage'),
  '/settings-rate-your-workers': settings('ratings/RateWorkersPage'),
  '/settings-blocked-users': settings('settings/blocked-users/BlockedUsersPage'),
  '/settings-saved-searches': settings('settings/saved-searches/SavedSearchesPage'),
  '/saved-searches/unsubscribe': ['src/features/saved-searches/UnsubscribePage.tsx'],
  '/settings-moderation': settings('moderation/ModerationPage'),
  '/settings-analytics': settings('analytics/AnalyticsPage'),
  '/messages': settings('conversations/MessagesPage'),
}

/** The file the gateway reads (never served: the static files skip dot folders). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json'

/**
 * Per address, the files to fetch with its HTML (scripts and stylesheets), and the page's
 * heading where it is fixed text (src/config/page-headings.ts), for the gateway to put in the
 * HTML's outline, and under it the page's first section where that is fixed text too.
 */
export type RoutePreloads = Record<
  string,
  { scripts: string[]; styles: string[]; heading?: string; section?: PageSection }
>

/**
 * Writes ROUTE_PRELOADS_FILE: for each address of ROUTE_MODULES, the chunks of its modules,
 * the chunks they import and their stylesheets, as the build named them. The gateway adds
 * them to that address's HTML as low-priority preloads (largest contentful
 * paint): the page's code then loads beside the app's scripts, not one round trip after
 * them. An address not listed (a thread, an unknown one) loads its chunks as before.
 */
export function routePreloads(root: string): Plugin {
  return {
    name: 'marketplace:route-preloads',
    apply: 'build',
    // After Vite's own: it drops the chunks of modules that are only CSS (settings.css
    // alone), which must not be named (a preload of a file the build did not write is a
    // 404, and an error in the console).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).flatMap((output) =>
          output.type === 'chunk' ? [output] : [],
        )
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
        const preloads: RoutePreloads = {}
        for (const [address, modules] of Object.entries(ROUTE_MODULES)) {
          const scripts: string[] = []
          const styles: string[] = []
          const visit = (file: string) => {
            if (scripts.includes(file)) return
            scripts.push(file)
            const chunk = byFile.get(file)
            for (const css of chunk?.viteMetadata?.importedCss ?? []) {
              if (!styles.includes(css)) styles.push(css)
            }
            for (const imported of chunk?.imports ?? []) if (byFile.has(imported)) visit(imported)
          }
          for (const module of modules) {
            const chunk = chunks.find((c) => c.facadeModuleId === `${root}/${module}`)
            if (!chunk) throw new Error(`route-preloads: no chunk for ${module} (${address})`)
            visit(chunk.fileName)
          }
          const heading = HEADING_BY_ADDRESS[address]
          const section = SECTION_BY_ADDRESS[address]
          preloads[address] = {
            scripts,
            styles,
            ...(heading ? { heading } : {}),
            ...(heading && section ? { section } : {}),
          }
        }
        this.emitFile({
          type: 'asset',
          fileName: ROUTE_PRELOADS_FILE,
          source: `${JSON.stringify(preloads, null, 2)}\n`,
        })
      },
    },
  }
}
