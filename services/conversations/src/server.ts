import { runService } from '@marketplace/service-kit'
import { buildConversationsApp } from './app'
import { readConfig } from './config'

async function main() {
  const config = readConfig()
  const app = await buildConversationsApp(config)
  await runService(app, { host: config.HOST, port: config.PORT })
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
