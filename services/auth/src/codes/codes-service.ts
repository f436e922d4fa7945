import { Messages } from '@marketplace/contracts/validation'
import { BadRequestError } from '@marketplace/service-kit'
import type { CodesRepository } from './codes-repository'
import {
  CODE_PATTERN,
  CODE_TTL_MS,
  SIGN_IN_CODE_TTL_MS,
  hashCode,
  newCode,
  type CodePurpose,
} from './one-time-codes'

const TTL_MS: Record<CodePurpose, number> = {
  'verify-email': CODE_TTL_MS,
  'reset-password': CODE_TTL_MS,
  'sign-in': SIGN_IN_CODE_TTL_MS,
}

/**
 * Issues and checks one-time codes: 6 digits, 15 minutes (sign-in: 10), 5 attempts, single use; a new
 * code of the same purpose voids the previous one. Only the keyed hash is stored.
 */
export function createCodeService(deps: { codes: CodesRepository; secret: string }) {
  return {
    /** Stores a fresh code and returns it in clear, for the e-mail only. */
    async issue(userId: string, purpose: CodePurpose, now = new Date()): Promise<string> {
      const code = newCode()
      await deps.codes.issue({
        userId,
        purpose,
        codeHash: hashCode(deps.secret, { userId, purpose, code }),
        now,
        ttlMs: TTL_MS[purpose],
      })
      return code
    },

    /** Consumes the code or throws a 400 that tells the person what to do next. */
    async consume(userId: string, purpose: CodePurpose, code: string, now = new Date()) {
      if (!CODE_PATTERN.test(code))
        throw new BadRequestError(Messages.auth.codeFormat, 'CODE_FORMAT')
      const result = await deps.codes.check({
        userId,
        purpose,
        codeHash: hashCode(deps.secret, { userId, purpose, code }),
        now,
      })
      switch (result.outcome) {
        case 'accepted':
          return
        case 'wrong':
          throw new BadRequestError(Messages.auth.codeWrong(result.attemptsLeft), 'CODE_WRONG')
        case 'expired':
          throw new BadRequestError(Messages.auth.codeExpired, 'CODE_EXPIRED')
        case 'exhausted':
          throw new BadRequestError(Messages.auth.codeAttemptsExhausted, 'CODE_ATTEMPTS_EXHAUSTED')
        case 'missing':
          throw new BadRequestError(Messages.auth.codeMissing, 'CODE_MISSING')
      }
    },
  }
}
export type CodeService = ReturnType<typeof createCodeService>
