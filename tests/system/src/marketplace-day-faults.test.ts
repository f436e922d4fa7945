import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A short marketplace day under faults: the committed workload (scripts/load/marketplace-day.mjs)
// runs for two minutes through the gateway on a stack of its own (its own Kafka and database
// as processes, every service twice, as `REPLICAS=2 start.sh`), while the broker is frozen for
// 20 s (SIGSTOP, what `docker pause` does to a container) and, later, one instance of every
// service is killed (SIGKILL) and started again 20 s after. At the end every acknowledged
// write (requests on posts, decisions, messages, favorites, requests to people) is looked up
// through the API and in the other side's socket: none may be lost or duplicated. The long
// run with every fault is the same script; its figures are in docs/reliability.md.
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
  badAnswers: { total: number; byRoute: Record<string, number> }
  faults: Array<{ fault: string; writesAcknowledged: number; secondsToNormalP99: number | null }>
}

describe('a marketplace day with the broker frozen and a service instance killed', () => {
  let child: ChildProcess | undefined
  const workDir = mkdtempSync(join(tmpdir(), 'marketplace-day-'))

  afterAll(() => {
    // The script stops its whole stack on SIGTERM.
    if (child && child.exitCode === null) child.kill('SIGTERM')
    rmSync(workDir, { recursive: true, force: true })
  })

  it('loses and duplicates no acknowledged write', async () => {
    mkdirSync(logDir, { recursive: true })
    const logFile = join(logDir, 'marketplace-day.log')
    const log = createWriteStream(logFile)
    const reportFile = join(workDir, 'report.json')
    const args = [
      join(repoRoot, 'scripts', 'load', 'marketplace-day.mjs'),
      '--duration',
      '120',
      '--rate',
      '4',
      '--users',
      '9',
      '--faults',
      'broker-freeze@25+20,instances-kill@65+20',
      '--settle',
      '90',
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
    expect(report.faults.map((fault) => fault.fault)).toEqual(['broker-freeze', 'instances-kill'])
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
    // A message push missed by a socket is reported, not asserted: whether the socket knew it
    // was cut off (Socket.IO notices a dead connection by its heartbeat, up to 45 s) is the
    // machine's timing; the message itself is checked above, in the conversation.
    console.log(`message pushes: ${JSON.stringify(report.pushes)}`)
    expect(exitCode).toBe(0)
  }, 1_200_000)
})
