import { createCatalogAnnouncer } from '@marketplace/read-models/testing'
import { startServiceTestApp, waitForConsumersCaughtUp } from '@marketplace/service-kit/testing'
import { buildReportsApp } from '../app'
import { readConfig } from '../config'
import { REPORTS_COLLECTION, type ReportDocument } from '../reports/report-document'

// A new consumer group first replays the shared broker's history (events of every earlier
// test), so an event under test may take a while to be handled.
export const EVENT_WAIT_MS = 60_000

/** Role codes in a moderator's token: a user (2000) who is also an admin (2001) or an editor (2002). */
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

  /** The tests' time travel: these reports as if filed at `createdAt`. */
  async function fileAt(reportIds: string[], createdAt: Date): Promise<void> {
    const reports = service.db.collection<ReportDocument>(REPORTS_COLLECTION)
    await reports.updateMany({ _id: { $in: reportIds } }, { $set: { createdAt } })
  }

  return { ...service, ...announcer, fileAt }
}

export type ReportsTestApp = Awaited<ReturnType<typeof startReportsTestApp>>
