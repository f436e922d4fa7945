import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// The marketplace day (scripts/load/marketplace-day.mjs) as the system tests run it: the
// committed workload on a stack of its own, its faults given on the command line, its report
// read back; and the account every day must balance at the end. One place for both day tests
// (marketplace-day-faults, marketplace-day-kills), which differ only in their faults and in
// what else they assert.
const repoRoot = join(__dirname, '..', '..', '..')
const logDir = join(repoRoot, '.data', 'logs', 'system-tests')

/** What the script writes with --json (the part the tests read). */
export interface DayReport {
  actions: number
  lost: number
  duplicated: number
  lostItems: unknown[]
  duplicatedItems: unknown[]
  writes: { acknowledged: number; byKind: Record<string, number> }
  pushes: {
    messages: number
    delivered: number
    duplicated: number
    lostWhileConnected: number
    missedWhileReconnecting: number
    notificationsMissing: number
    notificationsDuplicated: number
  }
  badAnswers: { total: number; byRoute: Record<string, number>; first: unknown[] }
  idempotency: { writesSentAgain: number; replayedAnswers: number }
  faults: Array<{ fault: string; writesAcknowledged: number; secondsToNormalP99: number | null }>
}

/**
 * A day runner for one test file: `run` starts the script with `dayArgs` (after its path and
 * before `--json`), logs to .data/logs/system-tests/<logName>.log, prints the script's own
 * summary and answers its exit code and report; `stop` (afterAll) ends a run still going,
 * whose script then stops its whole stack, and removes the report's directory.
 */
export function marketplaceDay(logName: string) {
  let child: ChildProcess | undefined
  const workDir = mkdtempSync(join(tmpdir(), `${logName}-`))

  async function run(dayArgs: string[]): Promise<{ exitCode: number | null; report: DayReport }> {
    mkdirSync(logDir, { recursive: true })
    const logFile = join(logDir, `${logName}.log`)
    const log = createWriteStream(logFile)
    const reportFile = join(workDir, 'report.json')
    const args = [
      join(repoRoot, 'scripts', 'load', 'marketplace-day.mjs'),
      ...dayArgs,
      '--json',
      reportFile,
    ]
    const exitCode = await new Promise<number | null>((resolve) => {
      child = spawn(process.execPath, args, {
        cwd: repoRoot,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout?.pipe(log)
      child.stderr?.pipe(log)
      child.once('exit', (code) => resolve(code))
    })
    const output = readFileSync(logFile, 'utf8')
    // The script's own summary, whatever happened: the figures of this run.
    console.log(
      output
        .split('\n')
        .filter((line) => line.startsWith('[load'))
        .join('\n'),
    )
    // 2: the run itself failed (the stack did not start, a setup step failed); see the log.
    if (exitCode !== 0 && exitCode !== 1)
      throw new Error(
        `the day did not run (exit ${exitCode}; log ${logFile}):\n${output.slice(-3000)}`,
      )
    return { exitCode, report: JSON.parse(readFileSync(reportFile, 'utf8')) as DayReport }
  }

  function stop() {
    // The script stops its whole stack on SIGTERM.
    if (child && child.exitCode === null) child.kill('SIGTERM')
    rmSync(workDir, { recursive: true, force: true })
  }

  return { run, stop }
}

/**
 * The account of a day that ran `faults` in that order: writes of every kind acknowledged
 * around them, none lost or stored twice, no push or notice twice, every notice listed. A
 * message push missed by a socket is reported, not asserted: whether the socket knew it was
 * cut off (Socket.IO notices a dead connection by its heartbeat, up to 45 s) is the machine's
 * timing; the message itself is checked in its conversation.
 */
export function expectEveryWriteAccounted(report: DayReport, faults: string[]) {
  expect(report.faults.map((fault) => fault.fault)).toEqual(faults)
  expect(report.writes.acknowledged).toBeGreaterThan(50)
  for (const kind of ['post-request', 'decision', 'message', 'favorite'])
    expect(report.writes.byKind[kind]).toBeGreaterThan(0)
  expect({ lost: report.lostItems, duplicated: report.duplicatedItems }).toEqual({
    lost: [],
    duplicated: [],
  })
  expect(report.lost).toBe(0)
  expect(report.duplicated).toBe(0)
  expect(report.pushes.duplicated).toBe(0)
  expect(report.pushes.notificationsDuplicated).toBe(0)
  expect(report.pushes.notificationsMissing).toBe(0)
  console.log(`message pushes: ${JSON.stringify(report.pushes)}`)
}
