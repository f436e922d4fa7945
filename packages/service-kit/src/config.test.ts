import { Type } from '@sinclair/typebox'
import { ConfigError, KafkaConfigSchema, MongoConfigSchema, loadConfig } from './config'

const Schema = Type.Object({
  PORT: Type.Integer({ minimum: 1 }),
  NAME: Type.String({ minLength: 1 }),
  LEVEL: Type.String({ default: 'info' }),
})

describe('loadConfig', () => {
  it('converts strings to the schema types and applies defaults', () => {
    expect(loadConfig(Schema, { PORT: '8080', NAME: 'jobs' })).toEqual({
      PORT: 8080,
      NAME: 'jobs',
      LEVEL: 'info',
    })
  })

  it('fails fast naming every missing or invalid setting', () => {
    expect(() => loadConfig(Schema, { PORT: 'eighty' })).toThrow(ConfigError)
    try {
      loadConfig(Schema, { PORT: 'eighty' })
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/)
      expect((error as Error).message).toMatch(/NAME/)
    }
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig(Schema, { PORT: '1', NAME: 'x', LEVEL: '' }).LEVEL).toBe('info')
  })
})

describe("the consumers' long-poll wait (KAFKA_FETCH_WAIT_MS)", () => {
  it('is 5 s unless set, and refuses a wait that would poll the broker in a tight loop', () => {
    expect(loadConfig(KafkaConfigSchema, { KAFKA_BROKERS: 'k:9092' }).KAFKA_FETCH_WAIT_MS).toBe(
      5000,
    )
    const set = loadConfig(KafkaConfigSchema, {
      KAFKA_BROKERS: 'k:9092',
      KAFKA_FETCH_WAIT_MS: '1000',
    })
    expect(set.KAFKA_FETCH_WAIT_MS).toBe(1000)
    expect(() =>
      loadConfig(KafkaConfigSchema, { KAFKA_BROKERS: 'k:9092', KAFKA_FETCH_WAIT_MS: '10' }),
    ).toThrow(/KAFKA_FETCH_WAIT_MS/)
  })
})

describe('secrets in production', () => {
  const Secrets = Type.Composite([
    MongoConfigSchema,
    Type.Object({
      NAME: Type.String({ default: 'auth' }),
      SESSION_SECRET: Type.String({ minLength: 1, secret: { productionMinLength: 32 } }),
      ADMIN_PASSWORD: Type.Optional(Type.String({ secret: { productionMinLength: 12 } })),
    }),
  ])
  const strong = {
    MONGO_URL: 'mongodb://mongo:27017/auth',
    SESSION_SECRET: 'f'.repeat(8) + '0123456789abcdef0123456789abcdef',
    ADMIN_PASSWORD: 'Vq7!kP2#rT9x',
  }
  const inProduction = (env: Record<string, string>) =>
    loadConfig(Secrets, { NODE_ENV: 'production', ...strong, ...env })
  const refusal = (env: Record<string, string>): string => {
    try {
      inProduction(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      return (error as Error).message
    }
    throw new Error('the configuration was accepted')
  }

  it('accepts long secrets of its own, and an optional secret left unset', () => {
    expect(inProduction({}).SESSION_SECRET).toBe(strong.SESSION_SECRET)
    const withoutAdmin: Record<string, string> = { ...strong }
    delete withoutAdmin.ADMIN_PASSWORD
    expect(loadConfig(Secrets, { NODE_ENV: 'production', ...withoutAdmin }).ADMIN_PASSWORD).toBe(
      undefined,
    )
  })

  it.each([
    ['ADMIN_PASSWORD', 'Admin1234!', /well-known default/],
    ['ADMIN_PASSWORD', 'CHANGEME', /well-known default/],
    ['ADMIN_PASSWORD', '<admin password>', /placeholder/],
    ['ADMIN_PASSWORD', 'Short1!', /has 7 characters; production needs at least 12/],
    ['SESSION_SECRET', 'marketplace-local-secret', /well-known default/],
    ['SESSION_SECRET', 'a'.repeat(31), /has 31 characters; production needs at least 32/],
    ['MONGO_URL', 'mongodb://auth:password@db:27017/auth', /the password in it is a well-known/],
    ['MONGO_URL', 'mongodb://auth:s3cret@db:27017/auth', /the password in it has 6 characters/],
  ])('refuses %s=%s naming the variable', (name, value, why) => {
    const message = refusal({ [name]: value })
    expect(message).toMatch(/^Refusing to start with NODE_ENV=production and a weak secret/)
    expect(message).toMatch(new RegExp(`\\b${name}: `))
    expect(message).toMatch(why)
    // The value itself never reaches a log line.
    expect(message).not.toContain(value)
  })

  it('names every weak secret at once', () => {
    const message = refusal({ SESSION_SECRET: 'secret', ADMIN_PASSWORD: 'Admin1234!' })
    expect(message).toMatch(/SESSION_SECRET: /)
    expect(message).toMatch(/ADMIN_PASSWORD: /)
  })

  it('accepts a database URL with a long password, or none', () => {
    expect(
      inProduction({ MONGO_URL: 'mongodb+srv://auth:Zu8%40kq2LmP9wXr4@cluster.example/auth' })
        .MONGO_URL,
    ).toMatch(/^mongodb\+srv:/)
  })

  it('leaves development values alone outside production', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const env = { ...strong, ADMIN_PASSWORD: 'Admin1234!', SESSION_SECRET: 'x' }
      expect(loadConfig(Secrets, NODE_ENV ? { ...env, NODE_ENV } : env).ADMIN_PASSWORD).toBe(
        'Admin1234!',
      )
    }
  })
})
