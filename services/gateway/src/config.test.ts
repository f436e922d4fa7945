import path from 'node:path'
import { ConfigError } from '@marketplace/service-kit'
import { loadGatewayConfig, parseTrustProxy } from './config'

describe('gateway configuration', () => {
  it('starts from an empty environment with the documented defaults', () => {
    const config = loadGatewayConfig({})

    expect(config).toEqual({
      serviceName: 'gateway',
      host: '127.0.0.1',
      port: 8080,
      reusePort: false,
      logLevel: 'info',
      upstreams: {},
      socketIoInstances: [],
      webDistDir: path.resolve(__dirname, '../../../apps/web/dist'),
      publicBucketUrl: 'http://127.0.0.1:9000/marketplace-media',
      s3Endpoint: 'http://127.0.0.1:9000',
      bodyLimit: 1024 * 1024,
      rateLimit: { max: 600, windowMs: 60_000 },
      upstreamTimeoutMs: 60_000,
      trustProxy: false,
      // Metrics share the service port until METRICS_PORT names one of their own.
      metricsPort: undefined,
      // Analytics off until KAFKA_BROKERS names a broker; plain Kafka until SASL is set.
      analytics: {
        kafkaBrokers: null,
        rateLimitMax: 60,
        kafkaAuth: {
          KAFKA_SASL_MECHANISM: undefined,
          KAFKA_SASL_USERNAME: undefined,
          KAFKA_SASL_PASSWORD: undefined,
          KAFKA_SSL: false,
        },
      },
    })
  })

  it('needs no JWT key: the gateway verifies no tokens', () => {
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: undefined })).not.toThrow()
    // Two gateways on one port (start.sh with REPLICAS=2).
    expect(loadGatewayConfig({ REUSE_PORT: 'true' }).reusePort).toBe(true)
  })

  it('takes only the upstreams that are set, without a trailing slash', () => {
    const config = loadGatewayConfig({
      JOBS_URL: 'http://jobs:3000/',
      AUTH_URL: 'https://auth.internal',
      PEOPLE_URL: '',
      ANALYTICS_URL: 'http://analytics:4009/',
    })

    expect(config.upstreams).toEqual({
      jobs: ['http://jobs:3000'],
      auth: ['https://auth.internal'],
      analytics: ['http://analytics:4009'],
    })
  })

  it('takes several instances of a service, comma-separated; the live connection follows notifications’', () => {
    const config = loadGatewayConfig({
      JOBS_URL: 'http://127.0.0.1:4003, http://127.0.0.1:4013/',
      NOTIFICATIONS_URL: 'http://127.0.0.1:4006,http://127.0.0.1:4016',
    })

    expect(config.upstreams.jobs).toEqual(['http://127.0.0.1:4003', 'http://127.0.0.1:4013'])
    expect(config.socketIoInstances).toEqual(['http://127.0.0.1:4006', 'http://127.0.0.1:4016'])
  })

  it.each([
    ['http://jobs:3000,jobs-2:3000', '"jobs-2:3000" is not an http(s) URL'],
    ['http://jobs:3000,http://jobs:3000/', 'an instance is listed twice'],
  ])('refuses JOBS_URL=%s', (value, problem) => {
    expect(() => loadGatewayConfig({ JOBS_URL: value })).toThrow(problem)
  })

  it('refuses an upstream that is not an http(s) URL', () => {
    expect(() => loadGatewayConfig({ JOBS_URL: 'jobs:3000' })).toThrow(ConfigError)
  })

  it('reads numbers from strings and resolves a relative WEB_DIST_DIR from the package directory', () => {
    const config = loadGatewayConfig({
      PORT: '0',
      BODY_LIMIT: '2048',
      RATE_LIMIT_MAX: '5',
      WEB_DIST_DIR: 'public',
    })

    expect(config.port).toBe(0)
    expect(config.bodyLimit).toBe(2048)
    expect(config.rateLimit.max).toBe(5)
    expect(config.webDistDir).toBe(path.resolve(__dirname, '..', 'public'))
  })

  it.each([
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['loopback,fd00::/8', ['loopback', 'fd00::/8']],
  ])('TRUST_PROXY=%s is %p', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected)
  })

  it.each(['true', 'ingress', '10.0.0.0/33', '300.1.1.1'])('TRUST_PROXY=%s is refused', (value) => {
    expect(() => loadGatewayConfig({ TRUST_PROXY: value })).toThrow(ConfigError)
  })
})
