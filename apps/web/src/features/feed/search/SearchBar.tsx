import { useCallback, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { SEARCH_DEBOUNCE_MS } from '@marketplace/contracts/marketplace'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { useClickOutside } from '@/hooks/use-click-outside'
import { paths } from '@/config/paths'
import { useSearchJobsQuery, useSearchPeopleQuery } from '@/features/feed/feed-api'
import { feedActions, selectFeed } from '@/features/feed/feed-slice'
import {
  filterSearchResults,
  isPostResult,
  personLabel,
  resultLabel,
  toSelection,
  type RawSearchResult,
} from '@/features/feed/search/search-results'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import './search.css'

export const SEARCH_ERROR = 'An error occurred while searching. Please try again.'

/**
 * Searches posts and people after a 300 ms pause, filters
 * the answers on the client and, on a choice, shows that single item in the home feed.
 */
export default function SearchBar() {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const { feedType } = useAppSelector(selectFeed)
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const wrapper = useRef<HTMLDivElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const resultButtons = useRef<Array<HTMLButtonElement | null>>([])
  const listId = useId()
  const inputId = useId()

  const trimmed = text.trim()
  const query = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS)
  // An empty (trimmed) query clears results and searches nothing.
  const skip = !query || !trimmed
  const jobs = useSearchJobsQuery(query, { skip })
  const people = useSearchPeopleQuery(query, { skip })

  const failed = !skip && (jobs.isError || people.isError)
  const searching = !skip && (jobs.isFetching || people.isFetching)
  const results = useMemo(() => {
    if (skip || failed) return []
    // The feed on screen lists its own kind first.
    const postsFirst = feedType === 'job'
    const found: RawSearchResult[] = postsFirst
      ? [...(jobs.data ?? []), ...(people.data ?? [])]
      : [...(people.data ?? []), ...(jobs.data ?? [])]
    return filterSearchResults(found, query)
  }, [skip, failed, feedType, jobs.data, people.data, query])

  const close = useCallback(() => setOpen(false), [])
  useClickOutside(wrapper, close, open)

  const choose = (result: RawSearchResult) => {
    const selection = toSelection(result)
    dispatch(feedActions.feedTypeSelected(selection.type))
    const category = typeof result.category === 'string' ? result.category.trim() : ''
    if (category) dispatch(feedActions.categorySelected(category))
    dispatch(feedActions.itemSelected(selection))
    setText('')
    setOpen(false)
    if (pathname !== paths.home) navigate(paths.home)
  }

  const focusResult = (index: number) => {
    const count = results.length
    if (count === 0) return
    const next = ((index % count) + count) % count
    resultButtons.current[next]?.focus()
  }

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      setOpen(true)
      focusResult(0)
    } else if (event.key === 'Escape') {
      setOpen(false)
    }
  }

  const onResultKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      focusResult(index + 1)
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      if (index === 0) input.current?.focus()
      else focusResult(index - 1)
    } else if (event.key === 'Escape') {
      setOpen(false)
      input.current?.focus()
    }
  }

  const showDropdown = open && !!trimmed && (!!query || failed)
  const pending = trimmed !== query || searching

  let dropdown = null
  if (showDropdown) {
    let body
    if (failed) {
      body = (
        <p className="search-message field-error" role="alert">
          {SEARCH_ERROR}
        </p>
      )
    } else if (results.length > 0) {
      body = (
        <ul className="search-results" id={listId} aria-label="Search results">
          {results.map((result, index) => {
            const post = isPostResult(result)
            const label = resultLabel(result)
            // A worker is labelled by their title; the name helps tell them apart.
            const detail = post ? '' : personLabel(result)
            return (
              <li key={`${post ? 'job' : 'worker'}-${result._id}`}>
                <button
                  type="button"
                  className="search-result"
                  ref={(element) => {
                    resultButtons.current[index] = element
                  }}
                  onClick={() => choose(result)}
                  onKeyDown={(event) => onResultKey(event, index)}
                >
                  <span className="search-result-text">
                    <span className="search-result-label">{label}</span>
                    {detail && detail !== label && (
                      <span className="search-result-detail muted">{detail}</span>
                    )}
                  </span>
                  <span className="badge">{post ? 'Post' : 'Person'}</span>
                </button>
              </li>
            )
          })}
        </ul>
      )
    } else if (pending) {
      body = (
        <p className="search-message muted" role="status">
          Searching...
        </p>
      )
    } else {
      body = <p className="search-message muted">No results found</p>
    }
    dropdown = <div className="search-dropdown">{body}</div>
  }

  return (
    <div className="search-bar" ref={wrapper} role="search">
      <label htmlFor={inputId} className="visually-hidden">
        Search
      </label>
      <input
        id={inputId}
        ref={input}
        type="search"
        className="search-input"
        placeholder={feedType === 'worker' ? 'Search people...' : 'Search posts...'}
        autoComplete="off"
        maxLength={200}
        value={text}
        aria-controls={showDropdown && results.length > 0 ? listId : undefined}
        onChange={(event) => {
          setText(event.target.value)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onInputKey}
      />
      {dropdown}
    </div>
  )
}
