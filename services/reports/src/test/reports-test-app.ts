import { createCatalogAnnouncer } from '@marketplace/read-models/testing'
import { startServiceTestApp, waitForConsumersCaughtUp } from '@marketplace/service-kit/testing'
import { buildReportsApp } from '../app'
import { readConfig } from '../config'
import { REPORTS_COLLECTION, type ReportDocument } from '../reports/report-document'
import { createClosedQueue } from '../reports/closed-queue-repository'
import { createReportQueue } from '../reports/report-queue-repository'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
export const EVENT_WAIT_MS = 60_000

/** Role codes in a moderator's token (spec 2 §3): a user who is also an admin or an editor. */
export const ADMIN_ROLES = ['2000', '2001']
export const EDITOR_ROLES = ['2000', '2002']

/**
 * The reports app as server.ts builds it, against the real servers, with helpers that
 * announce people and posts as the auth, people and jobs services do (read-models testing).
 */
export async function startReportsTestApp(name: string, env: Record<string, string> = {}) {
  const service = await startServiceTestApp(name, (base) =>
    buildReportsApp(readConfig({ ...base, ...env })),
  )
  // The history includes other suites' message.reported events, each filed into this
  // queue: read it all first, so a test's queue holds still while the test pages it.
  await waitForConsumersCaughtUp(service.groupPrefix)
  const announcer = createCatalogAnnouncer(service.db, { timeoutMs: EVENT_WAIT_MS })

  /**
   * The tests' time travel: these reports as if filed at `createdAt`, in the database and in
   * the open and the closed queues, whose place is the filing time
   * (report-queue-repository.ts, closed-queue-repository.ts).
   */
  async function fileAt(reportIds: string[], createdAt: Date): Promise<void> {
    const reports = service.db.collection<ReportDocument>(REPORTS_COLLECTION)
    const queue = createReportQueue(service.db)
    const closedQueue = createClosedQueue(service.db)
    const before = await Promise.all(reportIds.map((_id) => reports.findOne({ _id })))
    const open = before.filter((report): report is ReportDocument => report?.status === 'open')
    const closed = before.filter((report): report is ReportDocument => report?.status === 'closed')
    await queue.leave(open)
    await closedQueue.unlist(closed)
    await reports.updateMany({ _id: { $in: reportIds } }, { $set: { createdAt } })
    await queue.join(open.map((report) => ({ ...report, createdAt })))
    await closedQueue.list(closed.map((report) => ({ ...report, createdAt })))
  }

  return { ...service, ...announcer, fileAt }
}

export type ReportsTestApp = Awaited<ReturnType<typeof startReportsTestApp>>
