import {
  MINIMUM_AGE_YEARS,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_REQUIRED_SYMBOLS,
  PHONE_DIGITS,
  PICTURE_ALLOWED_TYPES,
  PICTURE_MAX_BYTES,
  PROFILE_PICTURE_ALLOWED_TYPES,
  PROFILE_PICTURE_MAX_BYTES,
  UPLOAD_CACHE_MAX_AGE_SECONDS,
} from './limits'
import { LIVE_CONNECTION, LIVE_EVENTS } from './live-connection'
import { NOTIFICATION_PREFERENCE_DEFAULTS } from './notifications'
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  POST_CREATED_OVERLAY_MS,
  RENDER_RETRY,
  REPORT_REVIEW_HOURS,
  UPLOAD_FAILURE_MESSAGE_SWITCH_MS,
  VERIFY_REDIRECT_DELAY_MS,
} from './timing'

describe('limits', () => {
  it('has the signup limits', () => {
    expect(NAME_MAX_LENGTH).toBe(24)
    expect([PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH]).toEqual([8, 24])
    expect(MINIMUM_AGE_YEARS).toBe(18)
    expect(PHONE_DIGITS).toBe(10)
    expect(PASSWORD_REQUIRED_SYMBOLS).toEqual(['!', '@', '#', '$', '%'])
  })

  it('caps pictures at 5 MB of jpeg, png or jpg', () => {
    expect(PICTURE_MAX_BYTES).toBe(5_242_880)
    expect(PICTURE_ALLOWED_TYPES).toEqual(['image/jpeg', 'image/png', 'image/jpg'])
  })

  it('lets profile pictures be webp or gif too, never svg, same cap', () => {
    expect(PROFILE_PICTURE_ALLOWED_TYPES).toEqual(
      expect.arrayContaining(['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/gif']),
    )
    expect(PROFILE_PICTURE_ALLOWED_TYPES).not.toContain('image/svg+xml')
    expect(PROFILE_PICTURE_MAX_BYTES).toBe(PICTURE_MAX_BYTES)
  })

  it('caches uploads for a year', () => {
    expect(UPLOAD_CACHE_MAX_AGE_SECONDS).toBe(31_536_000)
  })
})

describe('timings', () => {
  it('has the overlay, redirect and upload-message delays', () => {
    expect(POST_CREATED_OVERLAY_MS).toBe(2000)
    expect(VERIFY_REDIRECT_DELAY_MS).toBe(2000)
    expect(UPLOAD_FAILURE_MESSAGE_SWITCH_MS).toBe(5000)
  })

  it('has the render retries and the platform periods', () => {
    expect(RENDER_RETRY).toEqual({ attempts: 3, delayMs: 100 })
    expect(ACCOUNT_DELETION_GRACE_DAYS).toBe(30)
    expect(REPORT_REVIEW_HOURS).toBe(24)
  })
})

describe('live connection', () => {
  it('reconnects 5 times, 1 s apart, times out after 5 s, re-authenticates after 2 s, and warns a minute before the token expires', () => {
    expect(LIVE_CONNECTION).toEqual({
      reconnectionAttempts: 5,
      reconnectionDelayMs: 1000,
      timeoutMs: 5000,
      reauthenticateRetryMs: 2000,
      tokenExpiringLeadMs: 60_000,
    })
  })

  it('names the authenticate, authenticated and notification events, the conversations ones and the session ones', () => {
    expect(LIVE_EVENTS).toEqual({
      authenticate: 'authenticate',
      authenticated: 'authenticated',
      notification: 'notification',
      message: 'message',
      conversationRead: 'conversation-read',
      messageTakenDown: 'message-taken-down',
      reauthenticate: 'reauthenticate',
      reauthenticated: 'reauthenticated',
      tokenExpiring: 'token-expiring',
      sessionEnded: 'session-ended',
    })
  })
})

describe('notification preferences', () => {
  it('default to on, except mobile; Messages on', () => {
    expect(NOTIFICATION_PREFERENCE_DEFAULTS).toEqual({
      emailEnabled: true,
      mobileEnabled: false,
      postRequestsEnabled: true,
      postFavoritesEnabled: true,
      requestStatusEnabled: true,
      messagesEnabled: true,
    })
  })
})
