import { useId, useState, type ReactNode } from 'react'
import { FormField, hintIdOf } from '@/components/ui/FormField'
import {
  CONTACT_OPTIONS,
  LOCATIONS,
  PAYMENT_OPTIONS,
  POST_INFOS_MAX_LENGTH,
  POST_LOCATION_MAX_LENGTH,
  POST_SALARY_MAX_LENGTH,
  POST_TITLE_MAX_LENGTH,
  POST_WHEN_MAX_LENGTH,
} from '@marketplace/contracts/marketplace'
import { contactValueField } from '@marketplace/contracts/validation'
import './post-form-fields.css'

/**
 * The fields a post is written with, one set for "Add a post" and
 * "Modify": the same limits, choices and placeholders in both. Each field takes its value
 * and reports a change; `addon` is what a form puts beside the control (Modify's eye toggle).
 */
interface FieldProps<T> {
  value: T
  onChange: (value: T) => void
}

function WithAddon({ addon, children }: { addon?: ReactNode; children: ReactNode }) {
  return addon ? (
    <div className="field-with-eye">
      {children}
      {addon}
    </div>
  ) : (
    <>{children}</>
  )
}

export function TitleField({ value, onChange }: FieldProps<string>) {
  const id = useId()
  return (
    <FormField id={id} label="Title *">
      <input
        id={id}
        value={value}
        maxLength={POST_TITLE_MAX_LENGTH}
        required
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}

/** Where: required when a post is created; the known LOCATIONS are offered. */
export function WhereField({
  value,
  onChange,
  required = false,
  addon,
}: FieldProps<string> & { required?: boolean; addon?: ReactNode }) {
  const id = useId()
  const locations = useId()
  return (
    <FormField id={id} label={required ? 'Where *' : 'Where'}>
      <WithAddon addon={addon}>
        <input
          id={id}
          value={value}
          list={locations}
          maxLength={POST_LOCATION_MAX_LENGTH}
          required={required}
          placeholder="City, Remote or Hybrid"
          onChange={(event) => onChange(event.target.value)}
        />
      </WithAddon>
      <datalist id={locations}>
        {LOCATIONS.map((location) => (
          <option key={location} value={location} />
        ))}
      </datalist>
    </FormField>
  )
}

export function WhenField({ value, onChange }: FieldProps<string>) {
  const id = useId()
  return (
    <FormField id={id} label="When">
      <input
        id={id}
        value={value}
        maxLength={POST_WHEN_MAX_LENGTH}
        placeholder="e.g. Saturday 9am - 1pm"
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}

export function HowMuchField({ value, onChange }: FieldProps<string>) {
  const id = useId()
  return (
    <FormField id={id} label="How much">
      <input
        id={id}
        value={value}
        maxLength={POST_SALARY_MAX_LENGTH}
        placeholder="e.g. $25/hour"
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}

/** Payment as boxes to tick, when a post is created. */
export function PaymentChoices({ value, onChange }: FieldProps<string[]>) {
  const toggle = (option: string) =>
    onChange(
      value.includes(option) ? value.filter((entry) => entry !== option) : [...value, option],
    )
  return (
    <fieldset className="add-post-payment">
      <legend>Payment</legend>
      {PAYMENT_OPTIONS.map((option) => (
        <label key={option} className="checkbox">
          <input type="checkbox" checked={value.includes(option)} onChange={() => toggle(option)} />
          {option}
        </label>
      ))}
    </fieldset>
  )
}

/** Payment as a list in one line, when a post is modified (joined with " - "). */
export function PaymentListField({ value, onChange }: FieldProps<string>) {
  const id = useId()
  return (
    <FormField
      id={id}
      label="Payment"
      hint={<>Separate options with &quot;-&quot;: {PAYMENT_OPTIONS.join(', ')}</>}
    >
      <input
        id={id}
        value={value}
        aria-describedby={hintIdOf(id)}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}

/** Contact: none or one of the options; a post's own older value stays choosable. */
export function ContactField({
  value,
  onChange,
  addon,
}: FieldProps<string> & { addon?: ReactNode }) {
  const id = useId()
  const options: string[] = [...CONTACT_OPTIONS]
  if (value && !options.includes(value)) options.unshift(value)
  return (
    <FormField id={id} label="Contact">
      <WithAddon addon={addon}>
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">None</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </WithAddon>
    </FormField>
  )
}

/** Why the optional contact value is worth giving, under its field. */
export const CONTACT_VALUE_HINT = 'Optional, so an accepted worker can reach you'

/**
 * The contact value, right after the method: labelled and shaped after it ("WhatsApp
 * number", "Instagram handle"...), absent while no method is chosen. It is optional (the
 * poster may share it in the conversation instead); a value typed must suit the method.
 * `problem` is the shared rule's message (contracts' checkContactValue), shown once the field
 * was left or the form was sent, so typing is not interrupted.
 */
export function ContactValueField({
  method,
  value,
  onChange,
  problem,
  showProblem = false,
}: FieldProps<string> & {
  method: string
  problem: string | null
  showProblem?: boolean
}) {
  const id = useId()
  const [left, setLeft] = useState(false)
  if (!method) return null
  const field = contactValueField(method)
  const shown = (left || showProblem) && problem ? problem : null
  return (
    <FormField
      id={id}
      label={field.label}
      optional
      hint={shown ?? CONTACT_VALUE_HINT}
      invalid={!!shown}
    >
      <input
        id={id}
        type={field.inputMode === 'email' ? 'email' : field.inputMode === 'tel' ? 'tel' : 'text'}
        inputMode={field.inputMode}
        value={value}
        maxLength={field.maxLength}
        placeholder={field.placeholder}
        autoComplete="off"
        aria-invalid={!!shown}
        aria-describedby={hintIdOf(id)}
        onBlur={() => setLeft(true)}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}

export function InfosField({ value, onChange }: FieldProps<string>) {
  const id = useId()
  return (
    <FormField id={id} label="Infos">
      <textarea
        id={id}
        rows={4}
        value={value}
        maxLength={POST_INFOS_MAX_LENGTH}
        onChange={(event) => onChange(event.target.value)}
      />
    </FormField>
  )
}
