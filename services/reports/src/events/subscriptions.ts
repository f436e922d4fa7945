import type { ConsumerDefinition, TokenRevocations } from '@marketplace/service-kit'
import type { ReportsService } from '../reports/reports-service'

/** Every event the reports service reacts to, in one place. */
export function reportsSubscriptions(deps: {
  /** The read models of what can be reported (@marketplace/read-models createCatalogs), with their groups. */
  catalogs: ConsumerDefinition[]
  reports: ReportsService
  tokenRevocations: TokenRevocations
}): ConsumerDefinition[] {
  return [
    ...deps.catalogs,
    // Messages are reported in the conversations service; one group for both
    // events, so a message's take-down is applied after its report (same conversation key).
    {
      groupId: 'reports-messages',
      handlers: {
        'message.reported': ({ data }) => deps.reports.fileMessageReport(data),
        'message.taken-down': ({ data }) => deps.reports.messageTakenDown(data.messageId),
      },
    },
    // Its own group, as in every service: revocations must not wait behind a failing handler.
    { groupId: 'reports-token-revocations', handlers: deps.tokenRevocations.handlers },
  ]
}
