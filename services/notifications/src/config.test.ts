import { randomBytes } from 'node:crypto'
import { ConfigError } from '@marketplace/service-kit'
import { testKeyPair } from '@marketplace/service-kit/testing'
import { readConfig } from './config'

describe('notifications configuration in production', () => {
  const keys = testKeyPair()
  const production = {
    NODE_ENV: 'production',
    MONGO_URL: 'mongodb://mongo:27017/notifications',
    KAFKA_BROKERS: 'kafka:9092',
    JWT_PUBLIC_KEY: keys.publicKey,
    SAVED_SEARCH_LINK_SECRET: randomBytes(32).toString('hex'),
  }

  it('starts with a link secret of its own', () => {
    expect(readConfig(production).SAVED_SEARCH_LINK_SECRET).toBe(
      production.SAVED_SEARCH_LINK_SECRET,
    )
  })

  // The default is in this repository: anyone could sign an unsubscribe link with it.
  it('refuses to sign unsubscribe links with the local default, or without a secret set', () => {
    const unset: Record<string, string> = { ...production }
    delete unset.SAVED_SEARCH_LINK_SECRET
    for (const env of [
      unset,
      {
        ...production,
        SAVED_SEARCH_LINK_SECRET: 'marketplace-local-saved-search-link-secret-0123456789',
      },
    ]) {
      expect(() => readConfig(env)).toThrow(ConfigError)
      expect(() => readConfig(env)).toThrow(
        /NODE_ENV=production[\s\S]*SAVED_SEARCH_LINK_SECRET: /,
      )
    }
  })

  it('keeps the local default outside production (scripts/start.sh, the tests)', () => {
    const local: Record<string, string> = { ...production }
    delete local.NODE_ENV
    delete local.SAVED_SEARCH_LINK_SECRET
    expect(readConfig(local).SAVED_SEARCH_LINK_SECRET).toHaveLength(53)
  })
})
