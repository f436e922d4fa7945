#!/usr/bin/env node
// Where a CI run's time goes, and how much of the machine each part of it used.
//
// Runs a command (by default `bash .ci/run`), passes its output through, and samples the
// machine's CPU counters (/proc/stat) every two seconds. Each phase is the stretch between two
// of the run's own progress lines ("[marketplace 17:04] the other system tests ..."); for each
// it prints the wall time, the CPU-seconds the whole machine was busy (user, nice, system, irq,
// softirq, steal) and that as a share of all cores. The total busy CPU-seconds divided by the
// cores is the run's floor on this machine: no ordering of the same work finishes sooner than
// that, which is what says whether more parallelism can still shorten a phase.
//
// Counts the whole machine, so run it with nothing else running.
//
//   node scripts/bench/ci-cpu-profile.mjs [--log file] [--json file] [-- command ...]
//   e.g. in a clean clone: CI=true node scripts/bench/ci-cpu-profile.mjs --log /tmp/ci.log
import { spawn } from 'node:child_process'
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { parseArgs } from 'node:util'

const { values, positionals } = parseArgs({
  options: { log: { type: 'string' }, json: { type: 'string' }, interval: { type: 'string', default: '2' } },
  allowPositionals: true,
})
const command = positionals.length > 0 ? positionals : ['bash', '.ci/run']
const cores = cpus().length
const ticksPerSecond = 100 // USER_HZ: /proc/stat counts in hundredths of a second on Linux

/** The machine's busy and idle CPU-seconds since boot, summed over every core. */
function cpuCounters() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  return {
    busy: (user + nice + system + irq + softirq + steal) / ticksPerSecond,
    iowait: iowait / ticksPerSecond,
  }
}

const startedAt = Date.now()
const seconds = () => (Date.now() - startedAt) / 1000
const samples = [{ at: 0, ...cpuCounters(), load: loadavg()[0] }]
const sampler = setInterval(() => samples.push({ at: seconds(), ...cpuCounters(), load: loadavg()[0] }), Number(values.interval) * 1000)

// Progress lines, with the time the profiler saw them (the run's own clock may differ by its
// start-up: this one starts with the command).
const phases = [{ at: 0, name: '(start)' }]
const progressLine = /\[marketplace \d+:\d\d\]\x1b?\[?0?m?\s*(.*)$/
const log = values.log ? createWriteStream(values.log) : null
let pending = ''
function take(chunk, stream) {
  stream.write(chunk)
  log?.write(chunk)
  pending += chunk.toString()
  let newline
  while ((newline = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, newline)
    pending = pending.slice(newline + 1)
    const match = progressLine.exec(line)
    if (match) phases.push({ at: seconds(), name: match[1].replace(/\x1b\[[0-9;]*m/g, '').trim() })
  }
}

const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
child.stdout.on('data', (chunk) => take(chunk, process.stdout))
child.stderr.on('data', (chunk) => take(chunk, process.stderr))
const status = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)))
clearInterval(sampler)
samples.push({ at: seconds(), ...cpuCounters(), load: loadavg()[0] })
log?.end()

/** Busy CPU-seconds between two moments, read from the nearest samples around them. */
function counterAt(at) {
  let before = samples[0]
  for (const sample of samples) {
    if (sample.at > at) {
      const span = sample.at - before.at || 1
      const share = (at - before.at) / span
      return {
        busy: before.busy + (sample.busy - before.busy) * share,
        iowait: before.iowait + (sample.iowait - before.iowait) * share,
      }
    }
    before = sample
  }
  return before
}
const end = seconds()
const clock = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`
const rows = phases.map((phase, i) => {
  const until = i + 1 < phases.length ? phases[i + 1].at : end
  const from = counterAt(phase.at)
  const to = counterAt(until)
  const wall = until - phase.at
  const loads = samples.filter((s) => s.at >= phase.at && s.at <= until).map((s) => s.load)
  return {
    phase: phase.name,
    from: clock(phase.at),
    wallSeconds: Math.round(wall),
    busyCpuSeconds: Math.round(to.busy - from.busy),
    iowaitSeconds: Math.round(to.iowait - from.iowait),
    machineBusyPercent: wall > 0 ? Math.round(((to.busy - from.busy) / (wall * cores)) * 100) : 0,
    loadAverageMax: loads.length ? Math.max(...loads) : null,
  }
})
const totalBusy = samples.at(-1).busy - samples[0].busy
const summary = {
  command: command.join(' '),
  status,
  cores,
  wallSeconds: Math.round(end),
  busyCpuSeconds: Math.round(totalBusy),
  machineBusyPercent: Math.round((totalBusy / (end * cores)) * 100),
  floorSeconds: Math.round(totalBusy / cores),
  phases: rows.filter((row) => row.wallSeconds > 0),
}
console.log('\nCPU profile of the run (whole machine, %d cores):', cores)
console.log('from    wall s  busy CPU-s  busy %  iowait s  phase')
for (const row of summary.phases)
  console.log(
    `${row.from.padStart(6)} ${String(row.wallSeconds).padStart(7)} ${String(row.busyCpuSeconds).padStart(11)} ${String(row.machineBusyPercent).padStart(6)}% ${String(row.iowaitSeconds).padStart(9)}  ${row.phase}`,
  )
console.log(
  `total: ${summary.wallSeconds} s wall, ${summary.busyCpuSeconds} CPU-s busy (${summary.machineBusyPercent} % of ${cores} cores); floor for the same work: ${summary.floorSeconds} s`,
)
if (values.json) writeFileSync(values.json, JSON.stringify(summary, null, 2))
process.exit(typeof status === 'number' ? status : 1)
