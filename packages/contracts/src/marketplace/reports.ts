import type { Static } from '@sinclair/typebox'
import { isOneOf, literalUnion } from './literal-union'

/**
 * Report reasons: scam/fraud, inappropriate/offensive content, other. The value
 * is what travels as the report's `type`; the label is what the radio buttons show. The
 * values are our choice: the product names the reasons but not their wire codes.
 */
export const REPORT_REASONS = ['scam', 'inappropriate', 'other'] as const
export const ReportReasonSchema = literalUnion(REPORT_REASONS)
export type ReportReason = Static<typeof ReportReasonSchema>
export const isReportReason = (value: unknown): value is ReportReason =>
  isOneOf(REPORT_REASONS, value)

export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  scam: 'Scam/Fraud',
  inappropriate: 'Inappropriate/Offensive Content',
  other: 'Other',
}
