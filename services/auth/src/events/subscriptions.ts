import type { ConsumerDefinition } from '@marketplace/service-kit'
import type { CodeService } from '../codes/codes-service'
import type { Mailer } from '../mail/mailer'
import type { CodesRepository } from '../codes/codes-repository'
import type { CredentialsRepository } from '../accounts/credentials-repository'
import type { SessionsRepository } from '../sessions/sessions-repository'
import type { RateLimits } from '../rate-limits/rate-limits'
import {
  userDeletedHandler,
  userDeletionRequestedHandler,
} from '../accounts/account-deletion.handlers'
import {
  userProfileUpdatedHandler,
  workerProfileUpdatedHandler,
} from '../accounts/profile-projection.handlers'
import { sendVerificationCodeHandler } from '../accounts/send-verification-code.handler'

import type { TwoStepRepository } from '../two-step/two-step-repository'

/** Every event the auth service reacts to, wired in one place. */
export function authSubscriptions(deps: {
  credentials: CredentialsRepository
  sessionsRepository: SessionsRepository
  codesRepository: CodesRepository
  twoStepRepository: TwoStepRepository
  codes: CodeService
  mailer: Mailer
  rateLimits: RateLimits
  notifyOutbox(): void
}): ConsumerDefinition[] {
  const deletion = {
    credentials: deps.credentials,
    sessions: deps.sessionsRepository,
    codes: deps.codesRepository,
    twoStep: deps.twoStepRepository,
    rateLimits: deps.rateLimits,
    notifyOutbox: deps.notifyOutbox,
  }
  return [
    {
      groupId: 'auth',
      handlers: {
        'user.profile-updated': userProfileUpdatedHandler(deps.credentials),
        'worker-profile.updated': workerProfileUpdatedHandler(deps.credentials),
        'user.deletion-requested': userDeletionRequestedHandler(deletion),
        'user.deleted': userDeletedHandler(deletion),
      },
    },
    {
      // Its own group, so a slow mail server never holds up the projections above.
      groupId: 'auth-mail',
      handlers: { 'user.registered': sendVerificationCodeHandler(deps) },
    },
  ]
}
