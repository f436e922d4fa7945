#!/usr/bin/env node
// Identity benchmark: argon2id hashes per second on this machine, and login
// latency p50/p95 at 20 concurrent logins against the real auth service (built dist) on the
// real FerretDB, Kafka and SMTP servers of infra/local.
//
//   bash infra/local/infra.sh up && pnpm --filter @marketplace/auth build
//   node scripts/bench/auth-login.mjs [--duration 20] [--connections 20]
//
// Absolute times drift on a shared machine, so the result is also given as a ratio measured
// in the same run: login p50 divided by the time of one argon2 verification.
import { createRequire } from 'node:module'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { infraEnv, repoRoot as root } from './infra-env.mjs'

const authDir = join(root, 'services', 'auth')
const requireFromAuth = createRequire(join(authDir, 'package.json'))
const autocannon = createRequire(join(root, 'package.json'))('autocannon')

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '20' },
    accounts: { type: 'string', default: '20' },
  },
})
const log = (message) => console.log(`[bench] ${message}`)

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function measureArgon2() {
  const { hash, verify } = requireFromAuth('@node-rs/argon2')
  const { ARGON2_OPTIONS } = requireFromAuth('./dist/domain/password-hasher.js')
  const stored = await hash('Bench1234!', ARGON2_OPTIONS)
  for (let i = 0; i < 3; i += 1) await verify(stored, 'Bench1234!') // warm-up
  const rounds = 40
  let started = performance.now()
  for (let i = 0; i < rounds; i += 1) await hash(`Bench${i}!aA1`, ARGON2_OPTIONS)
  const sequentialMs = (performance.now() - started) / rounds
  started = performance.now()
  for (let i = 0; i < rounds; i += 1) await verify(stored, 'Bench1234!')
  const verifyMs = (performance.now() - started) / rounds
  // libuv's pool (4 threads by default) on this machine's cores: the service's real ceiling.
  started = performance.now()
  await Promise.all(Array.from({ length: rounds }, (_, i) => hash(`Par${i}!aA1`, ARGON2_OPTIONS)))
  const parallelPerSecond = rounds / ((performance.now() - started) / 1000)
  return { sequentialMs, verifyMs, sequentialPerSecond: 1000 / sequentialMs, parallelPerSecond }
}

async function startAuth(infra) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const { readConfig } = requireFromAuth('./dist/config.js')
  const { buildAuthApp } = requireFromAuth('./dist/app.js')
  const database = `bench_auth_${randomBytes(4).toString('hex')}`
  const config = readConfig({
    MONGO_URL: `${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`,
    KAFKA_BROKERS: infra.KAFKA_BROKERS,
    KAFKA_GROUP_PREFIX: `${database}-`,
    JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SMTP_HOST: infra.SMTP_HOST,
    SMTP_PORT: infra.SMTP_PORT,
    LOG_LEVEL: 'warn',
    PORT: '0',
    // One client address sends every login; the budgets are not what is measured.
    RATE_LIMIT_MULTIPLIER: '100000',
  })
  const app = await buildAuthApp(config)
  await app.listen({ host: '127.0.0.1', port: 0 })
  await app.events.ready
  const { port } = app.server.address()
  return { app, url: `http://127.0.0.1:${port}`, database }
}

async function verifiedAccounts(url, infra, count) {
  const accounts = []
  const password = 'Bench1234!'
  for (let i = 0; i < count; i += 1) {
    const email = `bench-${randomBytes(5).toString('hex')}@example.test`
    const response = await fetch(`${url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstname: 'Bench', lastname: 'Mark', email, phoneNumber: '2125550100', password,
        dateOfBirth: '1990-01-01', interest: 'Both', emailPreferences: false, termsAgreed: true,
      }),
    })
    if (response.status !== 201) throw new Error(`signup answered ${response.status}`)
    accounts.push({ email, password })
  }
  log(`${count} accounts signed up; reading their codes from the mail server`)
  for (const account of accounts) {
    let code
    for (let tries = 0; !code && tries < 300; tries += 1) {
      const search = await fetch(`${infra.MAIL_API_URL}/api/v1/search?query=to:${encodeURIComponent(account.email)}`)
      const [mail] = (await search.json()).messages
      if (mail) {
        const full = await (await fetch(`${infra.MAIL_API_URL}/api/v1/message/${mail.ID}`)).json()
        code = full.Text.match(/\b(\d{6})\b/)?.[1]
      } else await new Promise((resolve) => setTimeout(resolve, 100))
    }
    if (!code) throw new Error(`no verification mail for ${account.email}`)
    const confirm = await fetch(`${url}/api/auth/confirm-signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, code }),
    })
    if (confirm.status !== 200) throw new Error(`confirm answered ${confirm.status}`)
  }
  return accounts
}

async function main() {
  const infra = infraEnv()
  log('argon2id (m=19456 KiB, t=2, p=1): measuring hashes per second')
  const argon = await measureArgon2()
  log(`  one hash ${argon.sequentialMs.toFixed(1)} ms (${argon.sequentialPerSecond.toFixed(1)}/s sequential), ` +
    `${argon.parallelPerSecond.toFixed(1)}/s on the libuv pool, one verify ${argon.verifyMs.toFixed(1)} ms`)

  log('starting the auth service on the local servers')
  const { app, url, database } = await startAuth(infra)
  try {
    const accounts = await verifiedAccounts(url, infra, Number(args.accounts))
    const duration = Number(args.duration)
    const connections = Number(args.connections)
    log(`logins: ${connections} concurrent for ${duration} s over ${accounts.length} accounts`)
    let next = 0
    const latencies = []
    const result = await autocannon({
      url,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/api/auth/direct-login',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify(accounts[next++ % accounts.length]),
          }),
        },
      ],
      setupClient: (client) => client.on('response', (_status, _bytes, responseTime) => latencies.push(responseTime)),
    })
    latencies.sort((a, b) => a - b)
    const p50 = percentile(latencies, 50)
    const p95 = percentile(latencies, 95)
    const p99 = percentile(latencies, 99)
    const non2xx = result.non2xx + result.errors
    log(`  ${result.requests.total} logins, ${result.requests.average.toFixed(1)}/s, ${non2xx} failed`)
    log(`  latency p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`)
    const summary = {
      argon2: {
        hashMs: +argon.sequentialMs.toFixed(1),
        hashesPerSecondSequential: +argon.sequentialPerSecond.toFixed(1),
        hashesPerSecondParallel: +argon.parallelPerSecond.toFixed(1),
        verifyMs: +argon.verifyMs.toFixed(1),
      },
      login: {
        connections,
        durationSeconds: duration,
        requests: result.requests.total,
        perSecond: +result.requests.average.toFixed(1),
        failed: non2xx,
        p50Ms: +p50.toFixed(1),
        p95Ms: +p95.toFixed(1),
        p99Ms: +p99.toFixed(1),
        // Ratios to one argon2 verification, measured in this same run.
        p50OverVerify: +(p50 / argon.verifyMs).toFixed(2),
        p95OverVerify: +(p95 / argon.verifyMs).toFixed(2),
        perSecondOverParallelHashes: +(result.requests.average / argon.parallelPerSecond).toFixed(2),
      },
    }
    console.log(JSON.stringify(summary, null, 2))
    if (non2xx > 0) process.exitCode = 1
  } finally {
    // Close first: dropping the database under requests still in flight corrupts FerretDB's
    // SQLite file for them.
    await app.close()
    const { MongoClient } = requireFromAuth('mongodb')
    const client = await new MongoClient(`${infra.MONGO_URL_BASE}/${database}?${infra.MONGO_URL_OPTIONS}`).connect()
    await client.db().dropDatabase().catch(() => {})
    await client.close()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
