import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react'
import { createBrowserRouter } from 'react-router-dom'
import { RequireRole } from '@/app/RequireRole'
import Layout from '@/app/shell/Layout'
import RouteError from '@/app/shell/RouteError'
import { paths } from '@/config/paths'
import { HomePageSkeleton } from '@/features/feed/HomePageSkeleton'
import { importWithRetry } from '@/lib/retry-import'
import { ROLES } from '@marketplace/contracts/marketplace'

// Every page is its own chunk: the home feed loads without the settings area's code.
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(() => importWithRetry(load))
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

const show = (Page: LazyExoticComponent<ComponentType>, fallback = <Loading />) => (
  <Suspense fallback={fallback}>
    <Page />
  </Suspense>
)

/**
 * The home page when main.tsx loaded it before the first render (the first feed page came
 * in the HTML): it renders at once, the posts the HTML showed staying on screen, instead of
 * the outline for the moment the lazy page takes to resolve.
 */
let loadedHomePage: ComponentType | null = null
export function homePageLoaded(page: ComponentType): void {
  loadedHomePage = page
}
function HomeRoute() {
  const Loaded = loadedHomePage
  return Loaded ? <Loaded /> : show(HomePage, <HomePageSkeleton />)
}

const s = paths.settings

export const routes = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      // The feed's outline while its code loads: the page keeps its shape (issue 22 §2).
      { path: paths.home, element: <HomeRoute /> },
      { path: paths.login, element: show(LoginPage) },
      { path: paths.signup, element: show(SignupPage) },
      { path: paths.verify, element: show(VerifyPage) },
      { path: paths.forgotPassword, element: show(ForgotPasswordPage) },
      { path: paths.unauthorized, element: show(UnauthorizedPage) },
      { path: paths.terms, element: show(TermsPage) },
      { path: paths.about, element: show(AboutPage) },
      { path: paths.help, element: show(HelpPage) },
      { path: paths.contactUs, element: show(ContactUsPage) },
      {
        // spec 2 §2.1: every settings page needs the role User.
        element: (
          <RequireRole roles={[ROLES.User]}>
            <Suspense fallback={<Loading />}>
              <SettingsLayout />
            </Suspense>
          </RequireRole>
        ),
        children: [
          { path: s.account, element: show(AccountPage) },
          { path: s.myWorkerProfile, element: show(MyWorkerProfilePage) },
          { path: s.myPosts, element: show(MyPostsPage) },
          { path: s.postsIRequested, element: show(SentPostRequestsPage) },
          { path: s.requestsOnMyPosts, element: show(ReceivedPostRequestsPage) },
          { path: s.peopleIRequested, element: show(SentPeopleRequestsPage) },
          { path: s.peopleRequestedMe, element: show(ReceivedPeopleRequestsPage) },
          { path: s.favoritePeople, element: show(FavoritePeoplePage) },
          { path: s.favoritePosts, element: show(FavoritePostsPage) },
          { path: s.security, element: show(SecurityPage) },
          { path: s.notifications, element: show(NotificationPreferencesPage) },
          { path: s.helpSupport, element: show(HelpSupportPage) },
          { path: s.others, element: show(OthersPage) },
          { path: s.stats, element: show(StatsPage) },
          { path: s.rateWorkers, element: show(RateWorkersPage) },
          {
            // issue 17 §5: the list, with the open thread beside it (or alone on mobile).
            path: paths.messages.list,
            element: show(MessagesPage),
            children: [
              { path: paths.messages.threadPattern, element: show(ThreadPage) },
              { path: paths.messages.byRequestPattern, element: show(RequestThreadPage) },
            ],
          },
          {
            path: s.moderation,
            element: (
              <RequireRole roles={[ROLES.Admin, ROLES.Editor]}>{show(ModerationPage)}</RequireRole>
            ),
          },
          {
            path: s.analytics,
            element: (
              <RequireRole roles={[ROLES.Admin, ROLES.Editor]}>{show(AnalyticsPage)}</RequireRole>
            ),
          },
        ],
      },
      { path: '*', element: show(NotFoundPage) },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes)
}
