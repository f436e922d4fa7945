#!/usr/bin/env node
// Creates the product's topics and one principal's ACLs per service on a Kafka that
// authenticates (SASL/SCRAM) and authorizes (ACLs), as its administrator: each service may
// produce only to its own topics (packages/service-kit/src/events/kafka-acls.ts, docs/events.md).
// Idempotent. The SCRAM users themselves are the operator's (kafka-configs.sh, or the managed
// service's console); `--print` prints the equivalent kafka-acls.sh commands instead.
//
//   KAFKA_SCRAM_ADMIN_PASSWORD=... node scripts/kafka-acls.mjs --brokers host:9092 [--admin admin] [--ssl]
//   node scripts/kafka-acls.mjs --print --brokers host:9092 [--command-config admin.properties]
//   node scripts/kafka-acls.mjs --kafka-users > infra/k8s/engines/kafka-users.yaml   (Strimzi)
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { repoRoot } from './bench/infra-env.mjs'

const fromKit = createRequire(join(repoRoot, 'packages', 'service-kit', 'package.json'))
const { Kafka, logLevel } = fromKit('kafkajs')
const { applyKafkaAcls, kafkaAclCommands, strimziKafkaUsers, KAFKA_PRINCIPALS } = fromKit(
  '@marketplace/service-kit',
)

const { values: args } = parseArgs({
  options: {
    brokers: { type: 'string' },
    admin: { type: 'string', default: 'admin' },
    ssl: { type: 'boolean', default: false },
    print: { type: 'boolean', default: false },
    'kafka-users': { type: 'boolean', default: false },
    // With --print: the client config file kafka-topics.sh and kafka-acls.sh log in with.
    'command-config': { type: 'string', default: 'admin.properties' },
  },
})
if (args['kafka-users']) {
  process.stdout.write(strimziKafkaUsers())
  process.exit(0)
}
if (!args.brokers) {
  console.error('--brokers host:port[,host:port] is required')
  process.exit(2)
}

if (args.print) {
  for (const line of kafkaAclCommands({
    bootstrap: args.brokers,
    commandConfig: args['command-config'],
  }))
    console.log(line)
  process.exit(0)
}

const password = process.env.KAFKA_SCRAM_ADMIN_PASSWORD
if (!password) {
  console.error('KAFKA_SCRAM_ADMIN_PASSWORD is required (the administrator SCRAM user)')
  process.exit(2)
}
const admin = new Kafka({
  brokers: args.brokers.split(','),
  sasl: { mechanism: 'scram-sha-512', username: args.admin, password },
  ssl: args.ssl,
  logLevel: logLevel.WARN,
}).admin()
await admin.connect()
try {
  console.log(
    `[kafka-acls] topics and ACLs for ${KAFKA_PRINCIPALS.join(', ')} on ${args.brokers}...`,
  )
  const { topicsCreated, acls } = await applyKafkaAcls(admin)
  console.log(`[kafka-acls] ${topicsCreated} topics created, ${acls} ACLs in place`)
} finally {
  await admin.disconnect()
}
