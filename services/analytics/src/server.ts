import { runService } from '@marketplace/service-kit'
import { buildAnalyticsApp } from './app'
import { readConfig } from './config'

async function main() {
  const config = readConfig()
  const app = await buildAnalyticsApp(config)
  await runService(app, { host: config.HOST, port: config.PORT })
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
