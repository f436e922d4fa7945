/**
 * Imported first by every server.ts. With TRACING=1 it starts tracing before Fastify, the
 * MongoDB driver, pino or Socket.IO are loaded; otherwise it loads nothing of OpenTelemetry's
 * SDK and the service runs exactly as without it.
 */
import { tracingOptionsFromEnvironment } from './config'

const options = tracingOptionsFromEnvironment()
if (options) {
  // A synchronous, conditional load: the SDK and its instrumentations must be in place before
  // the service's own imports run, and are not loaded at all when tracing is off.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTracing } = require('./start-tracing') as typeof import('./start-tracing')
  startTracing(options)
}
