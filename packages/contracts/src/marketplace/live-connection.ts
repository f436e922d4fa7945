/** Socket.IO client options and the re-authenticate retry (spec 1 §4 "Live connection", §9). */
export const LIVE_CONNECTION = {
  reconnectionAttempts: 5,
  reconnectionDelayMs: 1000,
  timeoutMs: 5000,
  reauthenticateRetryMs: 2000,
} as const

/** Event names on the live connection (spec 1 §7). */
export const LIVE_EVENTS = {
  authenticate: 'authenticate',
  authenticated: 'authenticated',
  notification: 'notification',
} as const
