import { OFFER_NOTE_MAX_LENGTH, OFFER_TIME_MAX_LENGTH } from '@marketplace/contracts/marketplace'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import type { OfferDraft } from './offer-form'
import './offers.css'

/**
 * The offer a worker may add to a request (or the owner's counter, without a proposed time):
 * an amount with its unit, a note, a time. All optional when sending a request; `error` is
 * the message of the first problem, shown under the amount.
 */
export function OfferFields({
  idPrefix,
  draft,
  onChange,
  error,
  withTime = true,
  amountLabel = 'Your offer',
  optional = true,
}: {
  idPrefix: string
  draft: OfferDraft
  onChange: (draft: OfferDraft) => void
  error: string | null
  withTime?: boolean
  amountLabel?: string
  optional?: boolean
}) {
  const id = (name: string) => `${idPrefix}-${name}`
  const set = (change: Partial<OfferDraft>) => onChange({ ...draft, ...change })
  return (
    <fieldset className="offer-fields">
      <div className="offer-amount-row">
        <FormField
          id={id('amount')}
          label={amountLabel}
          optional={optional}
          invalid={error !== null}
          hint={error ?? 'In dollars, like 80 or 80.50'}
        >
          <input
            id={id('amount')}
            inputMode="decimal"
            value={draft.amount}
            aria-invalid={error !== null}
            aria-describedby={hintIdOf(id('amount'))}
            onChange={(event) => set({ amount: event.target.value })}
          />
        </FormField>
        <FormField id={id('unit')} label="Price">
          <select
            id={id('unit')}
            value={draft.unit}
            onChange={(event) => set({ unit: event.target.value as OfferDraft['unit'] })}
          >
            <option value="fixed">Fixed price</option>
            <option value="hour">Per hour</option>
          </select>
        </FormField>
      </div>
      <FormField id={id('note')} label="Note" optional>
        <textarea
          id={id('note')}
          rows={2}
          maxLength={OFFER_NOTE_MAX_LENGTH}
          value={draft.note}
          onChange={(event) => set({ note: event.target.value })}
        />
      </FormField>
      {withTime && (
        <FormField id={id('time')} label="When you can do it" optional>
          <input
            id={id('time')}
            maxLength={OFFER_TIME_MAX_LENGTH}
            placeholder="Saturday morning"
            value={draft.proposedTime}
            onChange={(event) => set({ proposedTime: event.target.value })}
          />
        </FormField>
      )}
    </fieldset>
  )
}
