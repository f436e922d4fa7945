import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Kills under a stream of writes, with nothing else failing: the committed workload
// (scripts/load/marketplace-day.mjs) on a stack of its own with every service twice and two
// gateways on one port (REPLICAS=2), while one of the two gateways is killed (SIGKILL) and
// started again 5 s later, then instance 1 of every service is killed in the middle of its
// writes and started again 20 s later. Every write carries an Idempotency-Key: a write whose
// instance died under it is sent by the gateway to the other instance, which answers it once.
// Not one answer may be other than success or 503 with Retry-After (`--strict`), and no
// acknowledged write may be lost or stored twice (docs/reliability.md, "A killed instance").
const repoRoot = join(__dirname, '..', '..', '..')
const logDir = join(repoRoot, '.data', 'logs', 'system-tests')

interface DayReport {
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

describe('writes while service instances and a gateway are killed', () => {
  let child: ChildProcess | undefined
  const workDir = mkdtempSync(join(tmpdir(), 'marketplace-kills-'))

  afterAll(() => {
    // The script stops its whole stack on SIGTERM.
    if (child && child.exitCode === null) child.kill('SIGTERM')
    rmSync(workDir, { recursive: true, force: true })
  })

  it('answers every call with success or 503 with Retry-After, and loses and duplicates nothing', async () => {
    mkdirSync(logDir, { recursive: true })
    const logFile = join(logDir, 'marketplace-day-kills.log')
    const log = createWriteStream(logFile)
    const reportFile = join(workDir, 'report.json')
    const args = [
      join(repoRoot, 'scripts', 'load', 'marketplace-day.mjs'),
      '--duration',
      '100',
      '--rate',
      '4',
      '--users',
      '9',
      '--faults',
      'gateway-restart@20+5,instances-kill@45+20',
      '--settle',
      '60',
      '--strict',
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
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as DayReport

    // The day happened and both faults with it, with writes acknowledged around them.
    expect(report.faults.map((fault) => fault.fault)).toEqual(['gateway-restart', 'instances-kill'])
    expect(report.writes.acknowledged).toBeGreaterThan(50)
    for (const kind of ['post-request', 'decision', 'message', 'favorite'])
      expect(report.writes.byKind[kind]).toBeGreaterThan(0)

    // Nothing acknowledged is lost or stored twice; no push arrives twice.
    expect({ lost: report.lostItems, duplicated: report.duplicatedItems }).toEqual({
      lost: [],
      duplicated: [],
    })
    expect(report.lost).toBe(0)
    expect(report.duplicated).toBe(0)
    expect(report.pushes.duplicated).toBe(0)
    expect(report.pushes.notificationsDuplicated).toBe(0)
    expect(report.pushes.notificationsMissing).toBe(0)
    // No refused call, no 502 on a write whose instance died: success or 503 + Retry-After.
    console.log(`keyed writes: ${JSON.stringify(report.idempotency)}`)
    expect({ badAnswers: report.badAnswers.total, first: report.badAnswers.first }).toEqual({
      badAnswers: 0,
      first: [],
    })
    // A message push missed by a socket is reported, not asserted: whether the socket knew it
    // was cut off (Socket.IO notices a dead connection by its heartbeat, up to 45 s) is the
    // machine's timing; the message itself is checked above, in the conversation.
    console.log(`message pushes: ${JSON.stringify(report.pushes)}`)
    expect(exitCode).toBe(0)
  }, 1_200_000)
})
