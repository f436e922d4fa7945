import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertWithEvents,
  type IndexDefinition,
} from '@marketplace/service-kit'
import { MESSAGE_REPORTS_COLLECTION, type MessageReportDocument } from './message-report-document'

export const messageReportIndexes: IndexDefinition[] = [
  // user.deleted: the purged reporter's reports (their own words in `description`).
  {
    collection: MESSAGE_REPORTS_COLLECTION,
    keys: { reporterId: 1 },
    options: { name: 'by_reporter' },
  },
  {
    collection: MESSAGE_REPORTS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export function createMessageReportsRepository(
  db: Db,
  hooks: { notifyOutbox(target: { collection: string; id: string; outbox?: DomainEvent[] }): void },
) {
  const reports = db.collection<MessageReportDocument>(MESSAGE_REPORTS_COLLECTION)

  return {
    /** Stores the report with its event; false when this reporter reported the message already. */
    async insert(report: MessageReportDocument, events: DomainEvent[]): Promise<boolean> {
      try {
        await reports.insertOne(insertWithEvents(report, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) return false
        throw error
      }
      hooks.notifyOutbox({ collection: MESSAGE_REPORTS_COLLECTION, id: report._id, outbox: events })
      return true
    },

    async forgetReporter(userId: string): Promise<void> {
      await reports.deleteMany({ reporterId: userId })
    },
  }
}

export type MessageReportsRepository = ReturnType<typeof createMessageReportsRepository>
