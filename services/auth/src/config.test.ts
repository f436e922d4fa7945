import { randomBytes } from 'node:crypto'
import { ConfigError } from '@marketplace/service-kit'
import { testKeyPair } from '@marketplace/service-kit/testing'
import { readConfig } from './config'

describe('auth configuration in production', () => {
  const keys = testKeyPair()
  const production = {
    NODE_ENV: 'production',
    MONGO_URL: 'mongodb://mongo:27017/auth',
    KAFKA_BROKERS: 'kafka:9092',
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_PRIVATE_KEY: keys.privateKey,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'Nq4!tZ8#wL2v',
  }

  it('starts with secrets of its own', () => {
    expect(readConfig(production).ADMIN_PASSWORD).toBe(production.ADMIN_PASSWORD)
  })

  it.each([
    ['ADMIN_PASSWORD', 'Admin1234!'],
    ['ADMIN_PASSWORD', 'Abc123!x'],
    ['SESSION_SECRET', '<at least 32 random characters, please>'],
    ['JWT_PRIVATE_KEY', 'c2VjcmV0'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => readConfig({ ...production, [name]: value })).toThrow(ConfigError)
    expect(() => readConfig({ ...production, [name]: value })).toThrow(
      new RegExp(`NODE_ENV=production[\\s\\S]*${name}: `),
    )
  })

  it('scripts/start.sh keeps its demo administrator: it does not run with NODE_ENV=production', () => {
    const local: Record<string, string> = { ...production }
    delete local.NODE_ENV
    expect(readConfig({ ...local, ADMIN_PASSWORD: 'Admin1234!' }).ADMIN_PASSWORD).toBe('Admin1234!')
  })
})
