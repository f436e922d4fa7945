// What the running stack asks the database while nobody uses it: the outbox relays' sweeps
// and any other timer. Reads every service's /metrics (mongodb_commands_total) twice, a
// window apart, and prints the commands per minute by service, command and collection.
//
//   bash scripts/start.sh            # the stack with demo data
//   node scripts/bench/idle-db-commands.mjs [--seconds 60]
//
// On FerretDB a query by a flag (the sweep's {outboxPending: true}) decodes every document
// of the collection, so each line here is a collection scan unless it is by _id.
import { readFileSync } from 'node:fs'

const SERVICES = {
  auth: 4001,
  people: 4002,
  jobs: 4003,
  favorites: 4004,
  reports: 4005,
  notifications: 4006,
}
const MONGO_PID_FILE = new URL('../../.data/pids/mongo.pid', import.meta.url)
const secondsArg = process.argv.indexOf('--seconds')
const seconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 60

async function sample() {
  const counts = new Map()
  for (const [service, port] of Object.entries(SERVICES)) {
    // start.sh serves each service's /metrics on its port + 1000, apart from the API.
    const text = await (await fetch(`http://127.0.0.1:${port + 1000}/metrics`)).text()
    for (const line of text.split('\n')) {
      const match = line.match(/^mongodb_commands_total\{([^}]*)\} (\d+(?:\.\d+)?)$/)
      if (!match) continue
      const labels = Object.fromEntries(
        [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
      )
      counts.set(`${service} ${labels.command} ${labels.collection ?? ''}`, Number(match[2]))
    }
  }
  return counts
}

/** CPU seconds the local MongoDB-protocol server (infra/local) has used, if it runs here. */
function mongoCpuSeconds() {
  try {
    const pid = readFileSync(MONGO_PID_FILE, 'utf8').trim()
    // Fields 14 and 15 of /proc/PID/stat: user and system time in clock ticks (100 per s).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

console.log(`[idle] sampling /metrics of ${Object.keys(SERVICES).join(', ')}`)
const before = await sample()
const cpuBefore = mongoCpuSeconds()
console.log(`[idle] waiting ${seconds} s with no traffic...`)
await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
const after = await sample()
const cpuAfter = mongoCpuSeconds()

const rows = [...after]
  .map(([key, value]) => [key, ((value - (before.get(key) ?? 0)) * 60) / seconds])
  .filter(([, perMinute]) => perMinute > 0)
  .sort((a, b) => b[1] - a[1])
const total = rows.reduce((sum, [, perMinute]) => sum + perMinute, 0)
console.log('\n| service command collection | per minute |\n|---|---:|')
for (const [key, perMinute] of rows) console.log(`| ${key} | ${perMinute.toFixed(1)} |`)
console.log(`| **all** | **${total.toFixed(1)}** |`)
if (cpuBefore !== null && cpuAfter !== null) {
  const share = (100 * (cpuAfter - cpuBefore)) / seconds
  console.log(`\nFerretDB CPU while idle: ${share.toFixed(1)} % of one core`)
}
