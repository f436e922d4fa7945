import {
  REPORT_DESCRIPTION_MAX_LENGTH,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
} from '@marketplace/contracts/marketplace'
import { FormField } from '@/components/ui/FormField'
import './report-reason-fields.css'

/**
 * The fields of every report: one of the reasons, then optional details with their
 * count. Reports of posts and people (features/reports) and of messages
 * (features/conversations) ask the same; each form keeps its own submit and its own texts.
 */
export function ReportReasonFields({
  name,
  reason,
  onReasonChange,
  details,
  onDetailsChange,
  detailsId,
  rows = 4,
}: {
  /** The radio group's name, unique on the page. */
  name: string
  reason: ReportReason | null
  onReasonChange: (reason: ReportReason) => void
  details: string
  onDetailsChange: (details: string) => void
  detailsId: string
  rows?: number
}) {
  return (
    <>
      <fieldset className="report-reasons">
        <legend>Reason</legend>
        {REPORT_REASONS.map((value) => (
          <label key={value} className="checkbox">
            <input
              type="radio"
              name={name}
              value={value}
              checked={reason === value}
              onChange={() => onReasonChange(value)}
            />
            {REPORT_REASON_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <FormField id={detailsId} label="Details (optional)">
        <textarea
          id={detailsId}
          rows={rows}
          value={details}
          maxLength={REPORT_DESCRIPTION_MAX_LENGTH}
          onChange={(event) => onDetailsChange(event.target.value)}
        />
        <span className="field-hint">
          {details.length}/{REPORT_DESCRIPTION_MAX_LENGTH}
        </span>
      </FormField>
    </>
  )
}
