import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react'
import { createBrowserRouter, matchRoutes } from 'react-router-dom'
import { RequireRole } from '@/app/RequireRole'
import Layout from '@/app/shell/Layout'
import RouteError from '@/app/shell/RouteError'
import { paths } from '@/config/paths'
import { HomePageSkeleton } from '@/features/feed/HomePageSkeleton'
import { importWithRetry } from '@/lib/retry-import'
import { ROLES } from '@marketplace/contracts/marketplace'

type Chunk = () => Promise<{ default: ComponentType }>
/** A page component, its chunk, and what loads it ahead of its first render (preloadRoute). */
type Page = (() => ReactElement) & { chunk: Chunk; preload: () => Promise<void> }

/**
 * Every page is its own chunk: the home feed loads without the settings area's code. A page
 * whose chunk preloadRoute loaded before its first render renders at once; any other one
 * lazily, with its route's fallback meanwhile.
 */
function page(load: Chunk): Page {
  let loaded: ComponentType | null = null
  const Lazy = lazy(() => importWithRetry(load))
  function LoadedOrLazy() {
    // Fixed for the mount: a page that switched from lazy to loaded would mount twice.
    const [Loaded] = useState(() => loaded)
    return Loaded ? <Loaded /> : <Lazy />
  }
  const preload = () =>
    load().then(
      (module) => {
        loaded = module.default
      },
      () => undefined, // the lazy route loads it again, with its retries and error element
    )
  return Object.assign(LoadedOrLazy, { chunk: load, preload })
}

const HomePage = page(() => import('@/features/feed/HomePage'))
const LoginPage = page(() => import('@/features/auth/pages/LoginPage'))
const SignupPage = page(() => import('@/features/auth/pages/SignupPage'))
const VerifyPage = page(() => import('@/features/auth/pages/VerifyPage'))
const ForgotPasswordPage = page(() => import('@/features/auth/pages/ForgotPasswordPage'))
const UnauthorizedPage = page(() => import('@/app/shell/UnauthorizedPage'))
const NotFoundPage = page(() => import('@/app/shell/NotFoundPage'))
const TermsPage = page(() => import('@/features/static/TermsPage'))
const AboutPage = page(() => import('@/features/static/AboutPage'))
const HelpPage = page(() => import('@/features/static/HelpPage'))
const ContactUsPage = page(() => import('@/features/static/ContactUsPage'))
const SettingsLayout = page(() => import('@/features/settings/SettingsLayout'))
const AccountPage = page(() => import('@/features/settings/account/AccountPage'))
const SecurityPage = page(() => import('@/features/settings/security/SecurityPage'))
const NotificationPreferencesPage = page(
  () => import('@/features/settings/notification-preferences/NotificationPreferencesPage'),
)
const HelpSupportPage = page(() => import('@/features/settings/help-support/HelpSupportPage'))
const OthersPage = page(() => import('@/features/settings/others/OthersPage'))
const BlockedUsersPage = page(() => import('@/features/settings/blocked-users/BlockedUsersPage'))
const SavedSearchesPage = page(() => import('@/features/settings/saved-searches/SavedSearchesPage'))
const UnsubscribePage = page(() => import('@/features/saved-searches/UnsubscribePage'))
const MyWorkerProfilePage = page(
  () => import('@/features/settings/worker-profile/MyWorkerProfilePage'),
)
const MyPostsPage = page(() => import('@/features/posts/my-posts/MyPostsPage'))
const ReceivedPostRequestsPage = page(() => import('@/features/requests/ReceivedPostRequestsPage'))
const SentPostRequestsPage = page(() => import('@/features/requests/SentPostRequestsPage'))
const SentPeopleRequestsPage = page(() => import('@/features/requests/SentPeopleRequestsPage'))
const ReceivedPeopleRequestsPage = page(
  () => import('@/features/requests/ReceivedPeopleRequestsPage'),
)
const FavoritePeoplePage = page(() => import('@/features/favorites/FavoritePeoplePage'))
const FavoritePostsPage = page(() => import('@/features/favorites/FavoritePostsPage'))
const StatsPage = page(() => import('@/features/stats/StatsPage'))
const RateWorkersPage = page(() => import('@/features/ratings/RateWorkersPage'))
const ModerationPage = page(() => import('@/features/moderation/ModerationPage'))
// Its charts (recharts) load with it only: the home route's JavaScript budget holds.
const AnalyticsPage = page(() => import('@/features/analytics/AnalyticsPage'))
const MessagesPage = page(() => import('@/features/conversations/MessagesPage'))
const ThreadPage = page(() => import('@/features/conversations/ThreadPage'))
const RequestThreadPage = page(() => import('@/features/conversations/RequestThreadPage'))

function Loading() {
  return (
    <p className="page-loading" role="status">
      Loading...
    </p>
  )
}

const show = (Page: ComponentType, fallback = <Loading />) => (
  <Suspense fallback={fallback}>
    <Page />
  </Suspense>
)

/** What a route carries for preloadRoute: the pages it renders. */
interface RouteHandle {
  pages: Page[]
}
const handle = (...pages: Page[]): { handle: RouteHandle } => ({ handle: { pages } })
/** A route showing one page, its chunk known to preloadRoute. */
const pageRoute = (path: string, Page: Page, fallback?: ReactElement) => ({
  path,
  element: show(Page, fallback),
  ...handle(Page),
})

const s = paths.settings

export const routes = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      // The feed's outline while its code loads: the page keeps its shape.
      pageRoute(paths.home, HomePage, <HomePageSkeleton />),
      pageRoute(paths.login, LoginPage),
      pageRoute(paths.signup, SignupPage),
      pageRoute(paths.verify, VerifyPage),
      pageRoute(paths.forgotPassword, ForgotPasswordPage),
      pageRoute(paths.unauthorized, UnauthorizedPage),
      pageRoute(paths.terms, TermsPage),
      pageRoute(paths.about, AboutPage),
      pageRoute(paths.help, HelpPage),
      pageRoute(paths.contactUs, ContactUsPage),
      pageRoute(paths.unsubscribe, UnsubscribePage),
      {
        // Every settings page needs the role User.
        element: (
          <RequireRole roles={[ROLES.User]}>
            <Suspense fallback={<Loading />}>
              <SettingsLayout />
            </Suspense>
          </RequireRole>
        ),
        ...handle(SettingsLayout),
        children: [
          pageRoute(s.account, AccountPage),
          pageRoute(s.myWorkerProfile, MyWorkerProfilePage),
          pageRoute(s.myPosts, MyPostsPage),
          pageRoute(s.postsIRequested, SentPostRequestsPage),
          pageRoute(s.requestsOnMyPosts, ReceivedPostRequestsPage),
          pageRoute(s.peopleIRequested, SentPeopleRequestsPage),
          pageRoute(s.peopleRequestedMe, ReceivedPeopleRequestsPage),
          pageRoute(s.favoritePeople, FavoritePeoplePage),
          pageRoute(s.favoritePosts, FavoritePostsPage),
          pageRoute(s.security, SecurityPage),
          pageRoute(s.notifications, NotificationPreferencesPage),
          pageRoute(s.helpSupport, HelpSupportPage),
          pageRoute(s.others, OthersPage),
          pageRoute(s.stats, StatsPage),
          pageRoute(s.rateWorkers, RateWorkersPage),
          pageRoute(s.blockedUsers, BlockedUsersPage),
          pageRoute(s.savedSearches, SavedSearchesPage),
          {
            // The list, with the open thread beside it (or alone on mobile).
            ...pageRoute(paths.messages.list, MessagesPage),
            children: [
              pageRoute(paths.messages.threadPattern, ThreadPage),
              pageRoute(paths.messages.byRequestPattern, RequestThreadPage),
            ],
          },
          {
            path: s.moderation,
            element: (
              <RequireRole roles={[ROLES.Admin, ROLES.Editor]}>{show(ModerationPage)}</RequireRole>
            ),
            ...handle(ModerationPage),
          },
          {
            path: s.analytics,
            element: (
              <RequireRole roles={[ROLES.Admin, ROLES.Editor]}>{show(AnalyticsPage)}</RequireRole>
            ),
            ...handle(AnalyticsPage),
          },
        ],
      },
      pageRoute('*', NotFoundPage),
    ],
  },
]

/**
 * Starts loading the chunks of the pages the route at this path renders (a settings page:
 * the settings frame and the page), and resolves when they are loaded or failed:
 * boot.tsx runs this beside the session's renewal, so the first render shows the page
 * itself, rather than a fallback, then a chunk's round trip, then the page.
 */
export function preloadRoute(pathname: string): Promise<void> {
  return Promise.all(pagesOf(pathname).map((page) => page.preload())).then(() => undefined)
}

/** The pages the route at this address renders, outermost first. */
export function pagesOf(pathname: string): Page[] {
  const matches = matchRoutes(routes, pathname) ?? []
  return matches.flatMap((match) => (match.route as { handle?: RouteHandle }).handle?.pages ?? [])
}

export function createAppRouter() {
  return createBrowserRouter(routes)
}
