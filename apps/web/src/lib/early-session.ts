/**
 * What index.html's inline script started with the page (largest contentful
 * paint): the session's renewal, when "Keep me signed in" is on, and on / the signed-in
 * feed's first page asked for with the token that renewal answered. The app takes each of
 * them once: the renewal is never sent a second time with the same refresh cookie (the
 * server takes a spent token presented again for theft, docs/identity.md), and the feed's
 * answer seeds the page's first query instead of a second request.
 */

/** An answer as the inline script keeps it: status 0 when the request failed on the network. */
export interface EarlyAnswer {
  status: number
  body: unknown
}

/** window.__earlySession, as index.html sets it. */
export interface EarlySession {
  renewal: Promise<EarlyAnswer>
  /** On / only: null when the renewal gave no token. */
  firstFeedPage: Promise<EarlyAnswer | null> | null
}

declare global {
  interface Window {
    __earlySession?: Partial<EarlySession>
  }
}

/** The renewal the page started, handed out once (null when there is none, or it was taken). */
export function takeEarlyRenewal(): Promise<EarlyAnswer> | null {
  const early = window.__earlySession
  const renewal = early?.renewal
  if (!early || !renewal) return null
  delete early.renewal
  return renewal
}

/** The signed-in feed's first page the page asked for, handed out once, or null. */
export function takeEarlyFirstFeedPage(): Promise<EarlyAnswer | null> | null {
  const early = window.__earlySession
  const page = early?.firstFeedPage
  if (!early || !page) return null
  delete early.firstFeedPage
  return page
}

/**
 * Whether an early answer says what the server decided. Network failures (0) and server
 * errors (5xx) say nothing: the app then renews itself, the path it takes without the early
 * script. A renewal that reached the server before failing and is sent again is answered by
 * the server's grace window (the same successor), not taken for a replay.
 */
export const isDecisive = (answer: EarlyAnswer): boolean => answer.status > 0 && answer.status < 500
