import type { FastifyBaseLogger } from 'fastify'
import type { CodeService } from '../codes/code-service'
import type { Mailer } from '../mail/mailer'
import type { RateLimits } from '../rate-limits/rate-limits'
import type { CredentialsRepository } from '../repositories/credentials-repository'
import type { SessionService } from '../sessions/session-service'
import type { PasswordHasher } from './password-hasher'

/** The ports every auth use case may need; app.ts builds them once. */
export interface AuthDependencies {
  credentials: CredentialsRepository
  sessions: SessionService
  codes: CodeService
  hasher: PasswordHasher
  mailer: Mailer
  rateLimits: RateLimits
  /** Wakes the outbox relay after a write that stored events. */
  notifyOutbox(): void
  log: FastifyBaseLogger
}

/** Who is asking, as far as the HTTP layer knows. */
export interface RequestContext {
  ip: string
  requestId?: string
}

/** Body fields arrive as anything; a missing or non-string one reads as empty. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
