// First: with TRACING=1 it instruments HTTP, MongoDB, pino and Socket.IO before they load.
import '@marketplace/service-kit/tracing/register'
import { runService } from '@marketplace/service-kit'
import { buildGateway } from './app'
import { loadGatewayConfig } from './config'

async function main() {
  const config = loadGatewayConfig()
  const app = await buildGateway(config)
  await runService(app, { host: config.host, port: config.port, reusePort: config.reusePort })
}

main().catch((error: unknown) => {
  // Before the app exists there is no logger; a bad configuration must still say why.
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
