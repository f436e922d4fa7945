import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type { CredentialsRepository } from './accounts/credentials-repository'
import type { PasswordHasher } from './accounts/password-hasher'
import type { CodeService } from './codes/codes-service'
import type { Mailer } from './mail/mailer'
import type { RateLimits } from './rate-limits/rate-limits'
import type { SessionService } from './sessions/sessions-service'
import type { TwoStepRepository } from './two-step/two-step-repository'
import type { TwoStepSecrets } from './two-step/two-step-secrets'

/** The app routes register on: the kit's, with the TypeBox type provider. */
export type { ServiceApp as AuthApp } from '@marketplace/service-kit'

/** The ports every auth use case may need; app.ts builds them once. */
export interface AuthDependencies {
  credentials: CredentialsRepository
  sessions: SessionService
  codes: CodeService
  hasher: PasswordHasher
  mailer: Mailer
  rateLimits: RateLimits
  /** Two-step sign-in settings and the challenges between password and second step. */
  twoStep: TwoStepRepository
  twoStepSecrets: TwoStepSecrets
  /** Wakes the outbox relay after a write that stored events. */
  notifyOutbox(): void
  log: FastifyBaseLogger
}

/** Who is asking, as far as the HTTP layer knows. */
export interface RequestContext {
  ip: string
  requestId?: string
}

export function contextOf(request: FastifyRequest): RequestContext {
  return { ip: request.ip, requestId: request.id }
}

/** Body fields arrive as anything; a missing or non-string one reads as empty. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
