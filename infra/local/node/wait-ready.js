// Readiness probes for infra/local/infra.sh: a server counts as up when it answers its own
// protocol, not when its port merely accepts connections.
//   node wait-ready.js mongo mongodb://127.0.0.1:27017/admin  60
//   node wait-ready.js kafka 127.0.0.1:9092 90
'use strict'
const [kind, target, seconds = '60'] = process.argv.slice(2)
const deadline = Date.now() + Number(seconds) * 1000

async function mongo() {
  const { MongoClient } = require('mongodb')
  const client = new MongoClient(target, { serverSelectionTimeoutMS: 2000 })
  try {
    await client.connect()
    await client.db('admin').command({ ping: 1 })
  } finally {
    await client.close().catch(() => undefined)
  }
}

async function kafka() {
  const { Kafka, logLevel } = require('kafkajs')
  // A broker started with KAFKA_SECURITY=scram (infra.sh) is asked as its administrator.
  const sasl = process.env.KAFKA_SCRAM_ADMIN_PASSWORD
    ? { mechanism: 'scram-sha-512', username: 'admin', password: process.env.KAFKA_SCRAM_ADMIN_PASSWORD }
    : undefined
  const admin = new Kafka({
    brokers: target.split(','),
    ...(sasl ? { sasl } : {}),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    retry: { retries: 0 },
  }).admin()
  try {
    await admin.connect()
    await admin.listTopics()
  } finally {
    await admin.disconnect().catch(() => undefined)
  }
}

async function main() {
  const probe = { mongo, kafka }[kind]
  if (!probe) throw new Error(`unknown probe ${kind}`)
  let lastError
  while (Date.now() < deadline) {
    try {
      await probe()
      return
    } catch (error) {
      lastError = error
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
  console.error(
    `${kind} at ${target} not ready after ${seconds}s: ${lastError && lastError.message}`,
  )
  process.exit(1)
}
main()
