// What the running stack costs while nobody uses it: the CPU each process of start.sh's stack
// (every service instance, the gateway, and the local servers) spends over a window with no
// client at all, read from /proc, as a share of one core.
//
//   bash scripts/start.sh                           # the stack with demo data, then leave it
//   node scripts/bench/idle-cpu.mjs [--seconds 60] [--data .data]
//
// Each process is found from the pid files start.sh and infra/local write under
// <data>/pids, with its descendants (a pid file may name a wrapper whose child does the
// work: Kafka's JVM, a shell around a binary). CPU is utime + stime from /proc/<pid>/stat,
// read at the start and the end of the window; a process that exits during the window counts
// what it used until its last reading. Prints one line per process, most first, then the
// total, with the load average the machine had, since other work on a shared machine slows
// every process's timers but does not add to their CPU.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadavg } from 'node:os'

const argument = (name, fallback) => {
  const at = process.argv.indexOf(name)
  return at > 0 ? process.argv[at + 1] : fallback
}
const seconds = Number(argument('--seconds', '60'))
const dataDir = argument('--data', new URL('../../.data', import.meta.url).pathname)
if (!Number.isFinite(seconds) || seconds <= 0)
  throw new Error('--seconds must be a positive number')

const TICKS_PER_SECOND = 100 // USER_HZ on Linux: /proc's CPU times are in these

/** pid -> parent pid, for every process now. */
function parents() {
  const map = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (stat) map.set(Number(entry), stat.ppid)
  }
  return map
}

/** The fields of /proc/<pid>/stat this script needs, or null when the process is gone. */
function readStat(pid) {
  let text
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name is in parentheses and may hold spaces: split after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }
}

/** Each named process (from its pid file) with its descendants' pids. */
function namedProcesses() {
  const pidDir = join(dataDir, 'pids')
  const tree = parents()
  const children = new Map()
  for (const [pid, ppid] of tree) children.set(ppid, [...(children.get(ppid) ?? []), pid])
  const named = []
  for (const file of readdirSync(pidDir)) {
    if (!file.endsWith('.pid')) continue
    const root = Number(readFileSync(join(pidDir, file), 'utf8').trim())
    if (!tree.has(root)) continue
    const pids = []
    const queue = [root]
    while (queue.length > 0) {
      const pid = queue.shift()
      pids.push(pid)
      queue.push(...(children.get(pid) ?? []))
    }
    named.push({ name: file.replace(/\.pid$/, '').replace(/^svc-/, ''), pids })
  }
  return named
}

function ticksOf(pids, last) {
  let total = 0
  for (const pid of pids) {
    const stat = readStat(pid)
    const ticks = stat ? stat.ticks : (last.get(pid) ?? 0)
    last.set(pid, ticks)
    total += ticks
  }
  return total
}

const processes = namedProcesses()
if (processes.length === 0)
  throw new Error(`no running process found from ${dataDir}/pids: start the stack first`)
const lastSeen = new Map()
const before = processes.map((entry) => ticksOf(entry.pids, lastSeen))
const loadBefore = loadavg()[0]
console.log(`sampling ${processes.length} processes for ${seconds} s...`)
await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
const rows = processes
  .map((entry, index) => {
    const used = (ticksOf(entry.pids, lastSeen) - before[index]) / TICKS_PER_SECOND
    return { name: entry.name, percent: (100 * used) / seconds }
  })
  .sort((a, b) => b.percent - a.percent)
const width = Math.max(...rows.map((row) => row.name.length))
for (const row of rows)
  console.log(`${row.name.padEnd(width)}  ${row.percent.toFixed(2).padStart(6)} % of a core`)
const total = rows.reduce((sum, row) => sum + row.percent, 0)
console.log(`${'total'.padEnd(width)}  ${total.toFixed(2).padStart(6)} % of a core`)
console.log(
  `load average ${loadBefore.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end`,
)
