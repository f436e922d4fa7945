#!/usr/bin/env node
// Sends a consumer group's dead letters back to it, once the cause of their failure is fixed
// (docs/events.md, "Dead letters"). Each event returns to its original topic with its key,
// marked for that group alone; progress is kept, so a second run sends only newer letters.
//
//   node scripts/redrive-dead-letters.mjs --group <consumer group id> [--brokers host:port]
//
// The group id is the full one, with KAFKA_GROUP_PREFIX if the service has one (the header
// `consumer-group` of a letter, or the `consumerGroup` of its log line, says it). Brokers:
// --brokers, else KAFKA_BROKERS, else .data/infra.env (infra/local). Needs the built kit
// (`pnpm turbo run build --filter=@marketplace/service-kit`).
import { createRequire } from 'node:module'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fromKit = createRequire(join(root, 'packages', 'service-kit', 'package.json'))

const { values } = parseArgs({
  options: { group: { type: 'string' }, brokers: { type: 'string' } },
})
if (!values.group) {
  console.error(
    'usage: node scripts/redrive-dead-letters.mjs --group <consumer group id> [--brokers host:port]',
  )
  process.exit(2)
}

function brokers() {
  if (values.brokers) return values.brokers
  if (process.env.KAFKA_BROKERS) return process.env.KAFKA_BROKERS
  const file = join(root, '.data', 'infra.env')
  const line = existsSync(file) && readFileSync(file, 'utf8').match(/^KAFKA_BROKERS=(.*)$/m)
  if (line) return line[1]
  console.error(
    'no broker: pass --brokers, set KAFKA_BROKERS, or run "bash infra/local/infra.sh up"',
  )
  process.exit(2)
}

const { Kafka, logLevel } = fromKit('kafkajs')
const { redriveDeadLetters, deadLetterTopicOf } = fromKit('./dist/index.js')
const kafka = new Kafka({
  clientId: 'redrive-dead-letters',
  brokers: brokers()
    .split(',')
    .map((broker) => broker.trim()),
  logLevel: logLevel.WARN,
})
const logger = {
  info: (fields) => console.log(`re-drove ${fields.eventId} to ${fields.originalTopic}`),
}
const sent = await redriveDeadLetters({ kafka, groupId: values.group, logger })
console.log(
  `${sent} dead letter(s) of ${deadLetterTopicOf(values.group)} sent back to group ${values.group}`,
)
