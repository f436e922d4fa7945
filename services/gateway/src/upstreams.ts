/** The services the gateway forwards to; each one's address comes from `<NAME>_URL`. */
export const UPSTREAM_NAMES = [
  'auth',
  'people',
  'jobs',
  'favorites',
  'reports',
  'notifications',
  'media',
  'conversations',
  'analytics',
] as const
export type UpstreamName = (typeof UPSTREAM_NAMES)[number]

/**
 * The auth service's httpOnly refresh cookie. It has Path=/ (so GET /logout gets it too), so
 * browsers attach it to every request; only auth may see it (lib/forwarded-headers).
 */
export const REFRESH_COOKIE = 'refresh_token'
export const REFRESH_COOKIE_UPSTREAM: UpstreamName = 'auth'

export interface ProxyRoute {
  upstream: UpstreamName
  /** Path prefix; forwarded unchanged, so the service sees the same path as the browser. */
  prefix: string
  /** Only these methods; the default is every method routes/proxy.ts proxies (PROXIED_METHODS). */
  methods?: string[]
  /** Socket.IO: WebSocket upgrades as well as HTTP long-polling. */
  websocket?: boolean
}

// ARCHITECTURE.md "Gateway routes". /socket.io (notifications) has routes of its own, which
// keep each long-polling session on one instance (routes/socket-io); only they take WebSocket
// handshakes, any other path refuses them (plugins/websocket-upgrades).
export const PROXY_ROUTES: readonly ProxyRoute[] = [
  { upstream: 'auth', prefix: '/api/auth' },
  { upstream: 'auth', prefix: '/logout', methods: ['GET', 'HEAD'] },
  { upstream: 'people', prefix: '/api/users' },
  { upstream: 'people', prefix: '/api/people' },
  { upstream: 'jobs', prefix: '/api/jobs' },
  { upstream: 'favorites', prefix: '/api/favorites' },
  { upstream: 'reports', prefix: '/api/reports' },
  { upstream: 'notifications', prefix: '/api/notifications' },
  { upstream: 'notifications', prefix: '/api/email' },
  { upstream: 'media', prefix: '/api/upload' },
  { upstream: 'conversations', prefix: '/api/conversations' },
  // The read side of product analytics (docs/analytics.md). Only its own paths: the gateway
  // itself takes POST /api/analytics/events, and a proxy on /api/analytics would shadow it.
  { upstream: 'analytics', prefix: '/api/analytics/daily', methods: ['GET', 'HEAD'] },
]
