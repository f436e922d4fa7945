import type { FastifyInstance } from 'fastify'
import { reuseportHandover } from './reuseport-handover'

/**
 * Starts a built app and shuts it down gracefully on SIGINT/SIGTERM: stop accepting
 * connections, let `onClose` hooks stop consumers, the relay and database clients, and
 * exit. A second signal, or 10 seconds without finishing, forces the exit.
 */
export async function runService(
  app: FastifyInstance,
  // reusePort: SO_REUSEPORT (Linux), so another process may listen on the same port beside
  // this one, and the port stays served while either restarts.
  listen: { host: string; port: number; reusePort?: boolean },
): Promise<void> {
  let shuttingDown = false
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      app.log.warn({ signal }, 'second signal, exiting now')
      process.exit(1)
    }
    shuttingDown = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => {
      app.log.error('graceful shutdown timed out')
      process.exit(1)
    }, 10_000)
    force.unref()
    try {
      await app.close()
      process.exit(0)
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown')
      process.exit(1)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled rejection')
  })

  try {
    await app.listen(listen)
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start')
    process.exit(1)
  }
  if (listen.reusePort && reuseportHandover() !== 'on') {
    app.log.warn(
      { tcpMigrateReq: reuseportHandover() },
      'net.ipv4.tcp_migrate_req is not on: when this process stops, connections queued for it are reset instead of going to the other process on the port (sysctl -w net.ipv4.tcp_migrate_req=1)',
    )
  }
}
