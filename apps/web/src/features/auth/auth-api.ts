import type { AuthMessage, LoginAnswer, SignupAnswer } from '@marketplace/contracts/api'
import type { SignupPayload } from '@marketplace/contracts/validation'
import { api } from '@/lib/api'

/**
 * The login form as sent. The contract leaves auth body fields untyped on purpose (a
 * mistyped field is answered with the product's sentence: docs/identity.md), so the web
 * keeps the types it sends.
 */
export interface LoginRequest {
  email: string
  password: string
  /** "Keep me signed in": the refresh cookie outlives the browser (docs/identity.md). */
  persist: boolean
}

/** Sign-up, verification, login and password reset (spec 1 §7, services/auth/src/routes). */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    signup: build.mutation<SignupAnswer, SignupPayload>({
      query: (body) => ({ url: '/api/auth/signup', method: 'POST', body }),
    }),
    confirmSignup: build.mutation<AuthMessage, { email: string; code: string }>({
      query: (body) => ({ url: '/api/auth/confirm-signup', method: 'POST', body }),
    }),
    resendConfirmation: build.mutation<AuthMessage, { email: string }>({
      query: (body) => ({ url: '/api/auth/resend-confirmation', method: 'POST', body }),
    }),
    directLogin: build.mutation<LoginAnswer, LoginRequest>({
      query: (body) => ({ url: '/api/auth/direct-login', method: 'POST', body }),
    }),
    /** docs/people.md: "Keep my account" during the deletion grace period; answers like a login. */
    keepAccount: build.mutation<LoginAnswer, LoginRequest>({
      query: (body) => ({ url: '/api/auth/keep-account', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<AuthMessage, { email: string }>({
      query: (body) => ({ url: '/api/auth/forgot-password', method: 'POST', body }),
    }),
    confirmPasswordReset: build.mutation<
      AuthMessage,
      { email: string; code: string; newPassword: string }
    >({
      query: (body) => ({ url: '/api/auth/confirm-password-reset', method: 'POST', body }),
    }),
  }),
})

export const {
  useSignupMutation,
  useConfirmSignupMutation,
  useResendConfirmationMutation,
  useDirectLoginMutation,
  useKeepAccountMutation,
  useForgotPasswordMutation,
  useConfirmPasswordResetMutation,
} = authApi

/**
 * The HTTP status a failed call got, or null when no answer came (spec 1 §8 "no response").
 * A body that is not JSON (a proxy's HTML error page) still had a status.
 */
export function responseStatus(error: unknown): number | null {
  if (!error || typeof error !== 'object' || !('status' in error)) return null
  const { status, originalStatus } = error as { status?: unknown; originalStatus?: unknown }
  if (typeof status === 'number') return status
  return typeof originalStatus === 'number' ? originalStatus : null
}

/** The service's machine-readable code ({ message, code }), e.g. EMAIL_NOT_VERIFIED. */
export function errorCode(error: unknown): string | null {
  if (!error || typeof error !== 'object' || !('data' in error)) return null
  const data = (error as { data?: unknown }).data
  if (!data || typeof data !== 'object' || !('code' in data)) return null
  const code = (data as { code?: unknown }).code
  return typeof code === 'string' ? code : null
}
