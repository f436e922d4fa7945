import { REPORT_DESCRIPTION_MAX_LENGTH } from '../marketplace/limits'
import { isReportReason } from '../marketplace/reports'
import { Messages } from './messages'
import { exceeds } from './text'

/** A report as the modal sends it: the reason as `type`, optional details. */
export interface ReportInput {
  type?: string | null
  description?: string | null
}

/**
 * A reason must be chosen from the three, else "Please select a reason for
 * reporting". Details are optional, at most 1000 characters.
 */
export function validateReport(report: ReportInput): string | null {
  if (!isReportReason(report.type)) return Messages.reports.reasonRequired
  if (exceeds(report.description, REPORT_DESCRIPTION_MAX_LENGTH)) {
    return Messages.tooLong('Description', REPORT_DESCRIPTION_MAX_LENGTH)
  }
  return null
}
