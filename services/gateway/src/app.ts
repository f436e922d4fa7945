import { ANALYTICS_EVENTS_PATH } from '@marketplace/contracts/marketplace'
import { createServiceApp } from '@marketplace/service-kit'
import { apiDocsRoutes } from './api-docs/api-docs-routes'
import { AnalyticsPublisher } from './analytics/analytics-publisher'
import { analyticsRoute } from './analytics/analytics-route'
import type { GatewayConfig, TrustProxy } from './config'
import { compressionPlugin } from './plugins/compression'
import { rateLimitPlugin } from './plugins/rate-limit'
import { securityHeadersPlugin } from './plugins/security-headers'
import { webSocketUpgradesPlugin } from './plugins/websocket-upgrades'
import { appConfigRoute } from './routes/app-config'
import { proxyRoutes } from './routes/proxy'
import { SOCKET_IO_PREFIX, socketIoRoutes } from './routes/socket-io'
import { spaRoutes } from './routes/spa'

/**
 * The public entry: service-kit's bootstrap (request ids, error shape, /healthz, /readyz,
 * /metrics; /readyz waits for no service: the gateway is ready when it can serve, and a service
 * that cannot be reached answers 503 on its own routes only, routes/proxy), then headers, rate limits and WebSocket dispatch, which must exist before the
 * routes they cover, then the proxied prefixes, the analytics intake (the gateway's own
 * route, published to Kafka when KAFKA_BROKERS is set), the API's description (/api/docs,
 * merged from every service's OpenAPI document) and the SPA for everything else.
 */
export async function buildGateway(config: GatewayConfig) {
  const app = await createServiceApp({
    serviceName: config.serviceName,
    logLevel: config.logLevel,
    bodyLimit: config.bodyLimit,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    metricsPort: config.metricsPort,
    metricsHost: config.host,
    // The gateway's own API routes; the proxied ones are documented by their services.
    publicPrefixes: [ANALYTICS_EVENTS_PATH],
    // A gateway shutting down serves what still arrives on its open connections (and closes
    // each after its answer) instead of Fastify's bare 503: clients then connect again and
    // reach the other gateway or the new one (REUSE_PORT, a Service's other pods).
    return503OnClosing: false,
  })

  await app.register(securityHeadersPlugin, {
    publicBucketUrl: config.publicBucketUrl,
    s3Endpoint: config.s3Endpoint,
  })
  await app.register(rateLimitPlugin, config.rateLimit)
  // Before every route it compresses (the proxied API and the SPA): it joins each as declared.
  await app.register(compressionPlugin)
  await app.register(webSocketUpgradesPlugin, { prefixes: [SOCKET_IO_PREFIX] })

  await app.register(proxyRoutes, {
    upstreams: config.upstreams,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
  })
  await app.register(socketIoRoutes, {
    instances: config.socketIoInstances,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
  })
  const publisher = config.analytics.kafkaBrokers
    ? new AnalyticsPublisher({
        brokers: config.analytics.kafkaBrokers,
        auth: config.analytics.kafkaAuth,
        logger: app.log.child({ component: 'analytics' }),
        metrics: app.metrics,
      })
    : null
  if (publisher) app.addHook('onClose', () => publisher.close())
  await app.register(analyticsRoute, {
    publisher,
    rateLimitMax: config.analytics.rateLimitMax,
    windowMs: config.rateLimit.windowMs,
  })
  await app.register(appConfigRoute, { publicBucketUrl: config.publicBucketUrl })
  await app.register(apiDocsRoutes, { upstreams: config.upstreams })
  await app.register(spaRoutes, {
    webDistDir: config.webDistDir,
    publicBucketUrl: config.publicBucketUrl,
  })
  return app
}

/**
 * Fastify 5 no longer honours a numeric trustProxy (it trusts nothing then), so a hop count
 * becomes proxy-addr's function form: trust the peer and the next `hops - 1` entries.
 */
function fastifyTrustProxy(trust: TrustProxy) {
  if (typeof trust !== 'number') return trust
  return (_address: string, hop: number) => hop < trust
}
