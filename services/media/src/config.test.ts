import { ConfigError } from '@marketplace/service-kit'
import { parseOrigins, readConfig } from './config'

const required = {
  JWT_PUBLIC_KEY: 'a-key',
  S3_ENDPOINT: 'http://minio:9000',
  S3_PUBLIC_URL: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'access',
  S3_SECRET_KEY: 'secret',
  KAFKA_BROKERS: 'kafka:9092',
  MONGO_URL: 'mongodb://mongo:27017/media',
}

describe('media configuration', () => {
  it('defaults to port 4007, the marketplace-media bucket, 5-minute addresses and the local app', () => {
    const config = readConfig(required)
    expect(config).toMatchObject({
      SERVICE_NAME: 'media',
      PORT: 4007,
      S3_BUCKET: 'marketplace-media',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
      UPLOAD_URL_TTL_SECONDS: 300,
      appOrigins: ['http://127.0.0.1:8080', 'http://localhost:8080'],
    })
  })

  it('reads path style, expiry and origins from the environment', () => {
    const config = readConfig({
      ...required,
      S3_FORCE_PATH_STYLE: 'false',
      UPLOAD_URL_TTL_SECONDS: '120',
      APP_ORIGINS: ' https://app.example.com , https://www.example.com',
    })
    expect(config.S3_FORCE_PATH_STYLE).toBe(false)
    expect(config.UPLOAD_URL_TTL_SECONDS).toBe(120)
    expect(config.appOrigins).toEqual(['https://app.example.com', 'https://www.example.com'])
  })

  it('allows 100 uploads per user and day, removes unattached ones after 24 hours, sweeps every 10 minutes', () => {
    expect(readConfig(required)).toMatchObject({
      UPLOADS_PER_DAY: 100,
      UNATTACHED_UPLOAD_MAX_AGE_HOURS: 24,
      UPLOAD_SWEEP_INTERVAL_SECONDS: 600,
    })
    expect(readConfig({ ...required, UPLOADS_PER_DAY: '20' }).UPLOADS_PER_DAY).toBe(20)
    expect(() => readConfig({ ...required, UPLOADS_PER_DAY: '0' })).toThrow(ConfigError)
  })

  it('refuses to start without its database', () => {
    expect(() => readConfig({ ...required, MONGO_URL: undefined })).toThrow(/MONGO_URL/)
  })

  it('refuses to start without the S3 address, the public address or the credentials', () => {
    expect(() => readConfig({ JWT_PUBLIC_KEY: 'a-key' })).toThrow(
      /S3_ENDPOINT[\s\S]*S3_PUBLIC_URL[\s\S]*S3_ACCESS_KEY[\s\S]*S3_SECRET_KEY/,
    )
  })

  it('refuses a public address with a path, which a signature for the host would not cover', () => {
    expect(() =>
      readConfig({ ...required, S3_PUBLIC_URL: 'http://127.0.0.1:9000/bucket' }),
    ).toThrow(ConfigError)
  })

  it('refuses upload addresses valid for more than an hour', () => {
    expect(() => readConfig({ ...required, UPLOAD_URL_TTL_SECONDS: '7200' })).toThrow(ConfigError)
  })

  it('refuses a bucket name S3 would refuse', () => {
    expect(() => readConfig({ ...required, S3_BUCKET: 'Marketplace_Media' })).toThrow(ConfigError)
  })
})

describe('parseOrigins', () => {
  it('refuses entries a browser never sends as Origin', () => {
    expect(() => parseOrigins('http://127.0.0.1:8080/')).toThrow(/not an origin: http:\/\/127/)
    expect(() => parseOrigins('127.0.0.1:8080')).toThrow(ConfigError)
    expect(() => parseOrigins(' , ')).toThrow(ConfigError)
  })
})
