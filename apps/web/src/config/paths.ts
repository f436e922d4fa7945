/** Every route of the app, in one place. */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  verify: '/verify',
  forgotPassword: '/forgot-password',
  unauthorized: '/unauthorized',
  terms: '/terms',
  about: '/about',
  help: '/help',
  contactUs: '/contact-us',
  /** A saved search's e-mail links here to stop its e-mails (no session needed). */
  unsubscribe: '/saved-searches/unsubscribe',
  settings: {
    account: '/settings-account',
    myWorkerProfile: '/settings-my-worker-profile',
    myPosts: '/settings-employer-jobs',
    postsIRequested: '/settings-worker-job-requested',
    requestsOnMyPosts: '/settings-employer-requests',
    peopleIRequested: '/settings-employer-workers-requested',
    peopleRequestedMe: '/settings-worker-requested-for',
    favoritePeople: '/settings-favorite-workers',
    favoritePosts: '/settings-favorite-jobs',
    security: '/settings-security',
    notifications: '/settings-notifications',
    helpSupport: '/settings-help-support',
    others: '/settings-others',
    stats: '/settings-employer-stats',
    rateWorkers: '/settings-rate-your-workers',
    /** The people the user blocked, with Unblock (docs/blocking.md). */
    blockedUsers: '/settings-blocked-users',
    /** The user's saved searches and their alerts (docs/saved-searches.md). */
    savedSearches: '/settings-saved-searches',
    moderation: '/settings-moderation',
    /** Product analytics, administrators and editors only. */
    analytics: '/settings-analytics',
  },
  /**
   * Messages: the list, a thread, and a request's conversation (resolved through
   * GET /api/conversations/by-request/:requestId).
   */
  messages: {
    list: '/messages',
    threadPattern: '/messages/:conversationId',
    byRequestPattern: '/messages/request/:requestId',
    thread: (conversationId: string) => `/messages/${encodeURIComponent(conversationId)}`,
    byRequest: (requestId: string) => `/messages/request/${encodeURIComponent(requestId)}`,
  },
} as const
