import { randomBytes } from 'node:crypto'
import {
  infraEnv,
  recordQueryShapes,
  testKeyPair,
  testMongoUrl,
} from '@marketplace/service-kit/testing'
import { buildAuthApp, type AuthAppOverrides } from '../app'
import { readConfig } from '../config'

export const VERIFY_SUBJECT = 'verification code'
export const RESET_SUBJECT = 'password reset code'

/**
 * The auth service wired to the real local servers, with its own database and consumer
 * groups, for one test file. Requests go through `app.inject`.
 */
export async function startAuthTestApp(
  label: string,
  env: Record<string, string> = {},
  overrides: AuthAppOverrides = {},
) {
  const infra = infraEnv()
  const keys = testKeyPair()
  const config = readConfig({
    // monitorCommands: the index check records every query's shape.
    MONGO_URL: `${testMongoUrl(label)}&monitorCommands=true`,
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_GROUP_PREFIX: `test-${label}-${randomBytes(4).toString('hex')}-`,
    OUTBOX_POLL_MS: '50',
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_PRIVATE_KEY: keys.privateKey,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SMTP_HOST: infra.smtpHost,
    SMTP_PORT: String(infra.smtpPort),
    LOG_LEVEL: 'silent',
    ...env,
  })
  const app = await buildAuthApp(config, overrides)
  const queryShapes = recordQueryShapes(app.mongo.db)
  queryShapes.attach(app.mongo.client)
  app.addHook('preClose', () => queryShapes.flush())
  await app.ready()
  return { app, keys, config }
}

/** A unique address at a domain the local SMTP server accepts. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.test`
}

/** A unique client address, so per-IP rate limits of one test never touch another's. */
export function uniqueIp(): string {
  const b = randomBytes(3)
  return `10.${b[0]}.${b[1]}.${b[2]}`
}

export function signupPayload(email: string, overrides: Record<string, unknown> = {}) {
  return {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email,
    phoneNumber: '2125550100',
    password: 'Analytic1843!',
    dateOfBirth: '1990-12-10',
    interest: 'Both',
    emailPreferences: false,
    termsAgreed: true,
    ...overrides,
  }
}

/** Cookies of a response as name → value (Set-Cookie parsed by light-my-request). */
export function cookiesOf(response: {
  cookies: Array<{ name: string; value: string }>
}): Record<string, string> {
  return Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie.value]))
}
