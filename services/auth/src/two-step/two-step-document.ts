import type { IndexDefinition } from '@marketplace/service-kit'

export const TWO_STEP = 'two_step_settings'
export const SIGN_IN_CHALLENGES = 'sign_in_challenges'

/**
 * One document per user that has ever touched two-step sign-in: `_id` is the user id, so
 * every read and write addresses it directly. Absent means both methods are off.
 */
export interface TwoStepDoc {
  _id: string
  /** E-mail two-step: a 6-digit code mailed after a correct password. */
  email: boolean
  /** The authenticator app's secret, AES-256-GCM encrypted; present once enrolment is confirmed. */
  totpSecret?: string
  /** An enrolment started but not confirmed with a first code yet. */
  pendingTotpSecret?: string
  /** The last TOTP time step accepted: a code of that step or older is refused (replay). */
  totpLastStep?: number
  /** Keyed hashes of the unused recovery codes; a used one is pulled out. */
  recoveryCodeHashes: string[]
  updatedAt: Date
  /** Wrong second-step answers in a row since the last success or lock. */
  failedSecondSteps?: number
  /** Locks since the last successful sign-in: each one lasts twice the one before. */
  secondStepLocks?: number
  /** Until then the authenticator is not asked (recovery and e-mail codes still are). */
  secondStepLockedUntil?: Date
}

export type SecondStepMethod = 'authenticator' | 'email'

/**
 * The state between a correct password and the second step: bound to one account, valid
 * 10 minutes, 5 tries, deleted when it succeeds. `_id` is the SHA-256 of the challenge id the
 * browser holds, so a database read gives nobody a usable challenge.
 */
export interface SignInChallengeDoc {
  _id: string
  userId: string
  methods: SecondStepMethod[]
  /** "Keep me signed in" as ticked on the login form; applies to the session made at the end. */
  persist: boolean
  /**
   * What the second step completes: a login (absent), or "Keep my account", which also
   * lifts the pending deletion once the second step passes.
   */
  purpose?: 'keep-account'
  createdAt: Date
  expiresAt: Date
}

export const twoStepIndexes: IndexDefinition[] = [
  { collection: SIGN_IN_CHALLENGES, keys: { userId: 1 }, options: { name: 'user' } },
  { collection: SIGN_IN_CHALLENGES, keys: { expiresAt: 1 }, options: { name: 'expires' } },
]
