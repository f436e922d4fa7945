import fastifyCookie from '@fastify/cookie'
import { buildService } from '@marketplace/service-kit'
import { accountsRoutes } from './accounts/accounts-routes'
import { CREDENTIALS, credentialIndexes } from './accounts/credential-document'
import { createCredentialsRepository } from './accounts/credentials-repository'
import { ensureAdmin } from './accounts/ensure-admin'
import { passwordHasher } from './accounts/password-hasher'
import type { AuthDependencies } from './auth-dependencies'
import { codeIndexes } from './codes/code-document'
import { createCodesRepository } from './codes/codes-repository'
import { createCodeService } from './codes/codes-service'
import type { AuthConfig } from './config'
import { authSubscriptions } from './events/subscriptions'
import { startHousekeeping } from './housekeeping'
import { createMailer, type Mailer } from './mail/mailer'
import { createRateLimits } from './rate-limits/rate-limits'
import { createAccessTokenSigner } from './sessions/access-tokens'
import { sessionIndexes } from './sessions/session-document'
import { createSessionsRepository } from './sessions/sessions-repository'
import { createSessionService } from './sessions/sessions-service'
import { sessionsRoutes } from './sessions/sessions-routes'
import { twoStepIndexes } from './two-step/two-step-document'
import { createTwoStepRepository } from './two-step/two-step-repository'
import { twoStepRoutes } from './two-step/two-step-routes'
import { createTwoStepSecrets } from './two-step/two-step-secrets'

export interface AuthAppOverrides {
  /** Tests may swap the mail port (for example a server that is down). */
  mailer?: Mailer
}

/** Accounts, codes by mail, tokens, refresh sessions and rate limits (docs/identity.md). */
export function buildAuthApp(config: AuthConfig, overrides: AuthAppOverrides = {}) {
  return buildService(config, {
    database: {
      indexes: [...credentialIndexes, ...sessionIndexes, ...codeIndexes, ...twoStepIndexes],
      outbox: [CREDENTIALS],
    },
    async compose({ app, db, notifyOutbox }) {
      await app.register(fastifyCookie)
      const credentials = createCredentialsRepository(db)
      const sessionsRepository = createSessionsRepository(db)
      const codesRepository = createCodesRepository(db)
      const twoStepRepository = createTwoStepRepository(db)
      const codes = createCodeService({ codes: codesRepository, secret: config.SESSION_SECRET })
      const mailer = overrides.mailer ?? createMailer(config, app.log, app.metrics)
      const rateLimits = createRateLimits(db, config.RATE_LIMIT_MULTIPLIER)
      await rateLimits.ensureIndexes()

      const deps: AuthDependencies = {
        credentials,
        sessions: createSessionService({
          sessions: sessionsRepository,
          credentials,
          signer: createAccessTokenSigner({
            privateKey: config.JWT_PRIVATE_KEY,
            issuer: config.JWT_ISSUER,
            audience: config.JWT_AUDIENCE,
            ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          }),
          policy: {
            sessionSecret: config.SESSION_SECRET,
            persistentSessionDays: config.PERSISTENT_SESSION_DAYS,
            browserSessionHours: config.BROWSER_SESSION_HOURS,
            reuseGraceSeconds: config.REFRESH_REUSE_GRACE_SECONDS,
          },
          log: app.log,
        }),
        codes,
        hasher: passwordHasher,
        mailer,
        rateLimits,
        twoStep: twoStepRepository,
        twoStepSecrets: createTwoStepSecrets(config.SESSION_SECRET),
        notifyOutbox,
        log: app.log,
      }
      const extraOrigins = config.EXTRA_ALLOWED_ORIGINS.split(',')
        .map((origin: string) => origin.trim())
        .filter(Boolean)

      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        const outcome = await ensureAdmin(
          { credentials, hasher: passwordHasher, notifyOutbox },
          { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD },
        )
        if (outcome === 'refused-unverified') {
          app.log.error(
            { email: config.ADMIN_EMAIL, outcome },
            'ADMIN_EMAIL belongs to an account whose address is not verified: NOT promoted to administrator. Verify the address (the code goes to its mailbox) or remove that account, then restart',
          )
        } else {
          app.log.info({ email: config.ADMIN_EMAIL, outcome }, 'administrator account ready')
        }
      }
      const stopHousekeeping = startHousekeeping(
        {
          sessions: (now) => sessionsRepository.removeExpired(now),
          codes: (now) => codesRepository.removeExpired(now),
          signInChallenges: (now) => twoStepRepository.removeExpired(now),
          rateLimits: (now) => rateLimits.removeExpired(now),
        },
        app.log,
      )

      return {
        subscriptions: authSubscriptions({
          credentials,
          sessionsRepository,
          codesRepository,
          twoStepRepository,
          codes,
          mailer,
          rateLimits,
          notifyOutbox,
        }),
        // The auth service is the source of truth: it reads the cut-off from the account itself.
        isTokenStillValid: async (claims) => {
          const account = await credentials.findById(claims.sub)
          if (!account || account.deletionRequestedAt) return false
          const cutOff = account.tokensValidAfter?.getTime() ?? 0
          return claims.iat >= Math.floor(cutOff / 1000)
        },
        async routes(app) {
          await app.register(accountsRoutes, deps)
          await app.register(sessionsRoutes, { deps, extraOrigins })
          await app.register(twoStepRoutes, deps)
        },
        async close() {
          stopHousekeeping()
          if (!overrides.mailer) mailer.close()
        },
      }
    },
  })
}
