/**
 * The route patterns of the web app's pages (apps/web src/config/paths.ts declares the same;
 * a web test keeps the two equal). Product analytics count page views only under these: a
 * page view is sent by anyone, signed in or not, so a path that is no page of the app (made
 * up by a script) must not take the place of a real route in a day's counts.
 * `:name` stands for one path segment (an id).
 */
export const APP_ROUTE_PATTERNS = [
  '/',
  '/login',
  '/signup',
  '/verify',
  '/forgot-password',
  '/unauthorized',
  '/terms',
  '/about',
  '/help',
  '/contact-us',
  '/settings-account',
  '/settings-my-worker-profile',
  '/settings-employer-jobs',
  '/settings-worker-job-requested',
  '/settings-employer-requests',
  '/settings-employer-workers-requested',
  '/settings-worker-requested-for',
  '/settings-favorite-workers',
  '/settings-favorite-jobs',
  '/settings-security',
  '/settings-notifications',
  '/settings-help-support',
  '/settings-others',
  '/settings-employer-stats',
  '/settings-rate-your-workers',
  '/settings-moderation',
  '/settings-analytics',
  '/settings-blocked-users',
  '/settings-saved-searches',
  '/saved-searches/unsubscribe',
  '/messages',
  '/messages/:conversationId',
  '/messages/request/:requestId',
] as const

/** Where page views of paths that are no page of the app are counted, all together. */
export const NOT_AN_APP_ROUTE = '(not a page of the app)'

/**
 * The app's route pattern a pathname is a page of, or NOT_AN_APP_ROUTE. A trailing slash is
 * ignored; a literal segment wins over a `:name` one (`/messages/request/x` is the request
 * pattern, never a thread named "request").
 */
export function appRouteOf(pathname: string): string {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1)
  let best: { pattern: string; literals: number } | null = null
  for (const pattern of APP_ROUTE_PATTERNS) {
    const parts = pattern === '/' ? [] : pattern.split('/').slice(1)
    if (parts.length !== segments.length) continue
    let literals = 0
    const fits = parts.every((part, i) => {
      if (part.startsWith(':')) return segments[i] !== ''
      literals += 1
      return part === segments[i]
    })
    if (fits && (!best || literals > best.literals)) best = { pattern, literals }
  }
  return best?.pattern ?? NOT_AN_APP_ROUTE
}
