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

/**
 * direct-login's 202 when two-step sign-in is on (services/auth/src/two-step): no session
 * yet, a challenge for the second step.
 */
export interface TwoStepChallenge {
  twoStepRequired: true
  challengeId: string
  methods: Array<'authenticator' | 'email'>
  expiresAt: string
  emailCodeSent: boolean
}

export type SecondStepMethod = 'authenticator' | 'email' | 'recovery'

export const isTwoStepChallenge = (answer: unknown): answer is TwoStepChallenge =>
  !!answer && typeof answer === 'object' && 'twoStepRequired' in answer

/** Sign-up, verification, login and password reset (services/auth, docs/identity.md). */
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
    directLogin: build.mutation<LoginAnswer | TwoStepChallenge, LoginRequest>({
      query: (body) => ({ url: '/api/auth/direct-login', method: 'POST', body }),
    }),
    /** The second step of a login; answers like a login. */
    verifySecondStep: build.mutation<
      LoginAnswer,
      { challengeId: string; method: SecondStepMethod; code: string }
    >({
      query: (body) => ({ url: '/api/auth/two-step/verify', method: 'POST', body }),
    }),
    sendSignInCode: build.mutation<AuthMessage, { challengeId: string }>({
      query: (body) => ({ url: '/api/auth/two-step/email-code', method: 'POST', body }),
    }),
    /**
     * docs/people.md: "Keep my account" during the deletion grace period; answers like a login
     * (with two-step sign-in on, a challenge: the deletion is lifted after the second step).
     */
    keepAccount: build.mutation<LoginAnswer | TwoStepChallenge, LoginRequest>({
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
  useVerifySecondStepMutation,
  useSendSignInCodeMutation,
  useKeepAccountMutation,
  useForgotPasswordMutation,
  useConfirmPasswordResetMutation,
} = authApi

/**
 * The HTTP status a failed call got, or null when no answer came.
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
