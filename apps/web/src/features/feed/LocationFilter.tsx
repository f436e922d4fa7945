import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import {
  ALL_FILTER,
  INTERNATIONAL_LOCATIONS,
  SPECIAL_LOCATIONS,
  US_LOCATIONS,
} from '@marketplace/contracts/marketplace'
import { useClickOutside } from '@/hooks/use-click-outside'
import { loadLocationSearch, matchLocations } from '@/features/feed/location-search'
import './feed.css'

const GROUPS: Array<{ label: string | null; items: readonly string[] }> = [
  { label: null, items: [ALL_FILTER, ...SPECIAL_LOCATIONS] },
  { label: 'United States', items: US_LOCATIONS },
  { label: 'International', items: INTERNATIONAL_LOCATIONS },
]

/**
 * All, Remote, Hybrid, then the cities of LOCATIONS (contracts); typing shows fuzzy
 * matches, and a text that matches nothing may be used as a custom location.
 */
export function LocationFilter({
  value,
  onChange,
  compact = false,
}: {
  value: string
  onChange: (location: string) => void
  compact?: boolean
}) {
  const [open, setOpen] = useState(false)
  const [text, setText] = useState('')
  const wrapper = useRef<HTMLDivElement>(null)
  const listId = useId()
  const inputId = useId()
  const close = useCallback(() => {
    setOpen(false)
    setText('')
  }, [])
  useClickOutside(wrapper, close, open)
  // The fuzzy matcher loads once the list opens (or is about to); the matches made meanwhile
  // are redone with it.
  const [, setMatcherReady] = useState(false)
  useEffect(() => {
    if (!open) return
    let current = true
    void loadLocationSearch().then(() => current && setMatcherReady(true))
    return () => {
      current = false
    }
  }, [open])

  const choose = (location: string) => {
    onChange(location)
    close()
  }

  const typed = text.trim()
  const matches = typed ? matchLocations(typed) : []

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') close()
    if (event.key === 'Enter' && typed) {
      event.preventDefault()
      choose(matches[0] ?? typed)
    }
  }

  const option = (location: string) => (
    <li key={location} role="option" aria-selected={location === value}>
      <button type="button" className="location-option" onClick={() => choose(location)}>
        {location}
      </button>
    </li>
  )

  return (
    <div className="location-filter" ref={wrapper}>
      <button
        type="button"
        className={`btn${compact ? ' btn-small' : ''}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onPointerEnter={() => void loadLocationSearch()}
        onFocus={() => void loadLocationSearch()}
        onClick={() => (open ? close() : setOpen(true))}
      >
        Location: {value}
      </button>
      {open && (
        <div className="location-dropdown">
          <label htmlFor={inputId} className="visually-hidden">
            Search locations
          </label>
          <input
            id={inputId}
            type="search"
            placeholder="Search locations..."
            autoComplete="off"
            autoFocus
            value={text}
            maxLength={100}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onInputKey}
          />
          <ul className="location-options" id={listId} role="listbox" aria-label="Locations">
            {typed ? (
              matches.length > 0 ? (
                matches.map(option)
              ) : (
                <li role="option" aria-selected={false}>
                  <button type="button" className="location-option" onClick={() => choose(typed)}>
                    Use &quot;{typed}&quot;
                  </button>
                </li>
              )
            ) : (
              GROUPS.map((group) => [
                group.label && (
                  <li key={group.label} role="presentation" className="location-group-label">
                    {group.label}
                  </li>
                ),
                ...group.items.map(option),
              ])
            )}
          </ul>
        </div>
      )}
    </div>
  )
}
