// First: with TRACING=1 it instruments HTTP, MongoDB, pino and Socket.IO before they load.
import '@marketplace/service-kit/tracing/register'
import { runService } from '@marketplace/service-kit'
import { buildAuthApp } from './app'
import { readConfig } from './config'

async function main() {
  const config = readConfig()
  const app = await buildAuthApp(config)
  await runService(app, { host: config.HOST, port: config.PORT })
}

main().catch((error: unknown) => {
  // The whole error: its stack, its cause, an AggregateError's parts (an empty message alone
  // once left a start-up failure unexplained).
  console.error(error)
  process.exit(1)
})
