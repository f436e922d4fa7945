import { useId, useState } from 'react'
import './info-tooltip.css'

/**
 * An "i" that shows its text on hover and on keyboard focus; the text is
 * also the button's description, so a screen reader reads it without hovering.
 */
export function InfoTooltip({
  text,
  label = 'More information',
}: {
  text: string
  label?: string
}) {
  const id = useId()
  const [open, setOpen] = useState(false)
  return (
    <span
      className="info-tooltip"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
    >
      <button
        type="button"
        className="info-tooltip-trigger"
        aria-label={label}
        aria-describedby={id}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen((value) => !value)}
      >
        i
      </button>
      <span id={id} role="tooltip" className="info-tooltip-text" hidden={!open}>
        {text}
      </span>
    </span>
  )
}
