import { useState } from 'react'
import { Link } from 'react-router-dom'
import type { SavedSearch } from '@marketplace/contracts/api'
import type { SavedSearchEmail } from '@marketplace/contracts/marketplace'
import { errorMessage } from '@/lib/api'
import {
  useChangeSavedSearchMutation,
  useDeleteSavedSearchMutation,
  useGetSavedSearchesQuery,
} from '@/features/saved-searches/saved-searches-api'
import '@/features/settings/settings.css'
import '@/features/settings/saved-searches/saved-searches-page.css'

const EMAIL_CHOICES: Array<{ value: SavedSearchEmail; label: string }> = [
  { value: 'immediate', label: 'E-mail me at once' },
  { value: 'daily', label: 'One e-mail a day' },
  { value: 'off', label: 'No e-mail' },
]

const LOAD_FAILED = 'Failed to load your saved searches'
const CHANGE_FAILED = 'The change could not be saved. Please try again.'

/**
 * Settings › Saved searches: each search with its e-mail choice, pause or resume, rename and
 * delete. New posts that match an active search are announced in the bell (and by e-mail as
 * chosen); a paused one tells nothing until resumed.
 */
export default function SavedSearchesPage() {
  const { data, isLoading, isError } = useGetSavedSearchesQuery()
  const [problem, setProblem] = useState<string | null>(null)
  const searches = data?.savedSearches

  return (
    <div className="settings-page saved-searches-page">
      <h1>Saved searches</h1>
      <p>
        We tell you when a new post matches one of your saved searches. Save a search from the home
        page{data ? ` (up to ${data.limit})` : ''}.
      </p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {isLoading && <p>Loading...</p>}
      {isError && (
        <p className="form-error" role="alert">
          {LOAD_FAILED}
        </p>
      )}
      {searches && searches.length === 0 && <p>You have no saved searches yet.</p>}
      {searches && searches.length > 0 && (
        <ul className="saved-searches-list">
          {searches.map((search) => (
            <SavedSearchItem key={search._id} search={search} onProblem={setProblem} />
          ))}
        </ul>
      )}
    </div>
  )
}

function SavedSearchItem({
  search,
  onProblem,
}: {
  search: SavedSearch
  onProblem: (problem: string | null) => void
}) {
  const [change, { isLoading: changing }] = useChangeSavedSearchMutation()
  const [remove, { isLoading: removing }] = useDeleteSavedSearchMutation()
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(search.name)

  const apply = async (changes: Parameters<typeof change>[0]['changes']) => {
    onProblem(null)
    try {
      await change({ id: search._id, changes }).unwrap()
      return true
    } catch (failure) {
      onProblem(errorMessage(failure, CHANGE_FAILED))
      return false
    }
  }

  const erase = async () => {
    onProblem(null)
    try {
      await remove(search._id).unwrap()
    } catch (failure) {
      onProblem(errorMessage(failure, CHANGE_FAILED))
    }
  }

  return (
    <li className="saved-search">
      {renaming ? (
        <form
          className="save-search-form"
          onSubmit={(event) => {
            event.preventDefault()
            void apply({ name }).then((done) => done && setRenaming(false))
          }}
        >
          <label htmlFor={`rename-${search._id}`} className="visually-hidden">
            New name for {search.name}
          </label>
          <input
            id={`rename-${search._id}`}
            value={name}
            maxLength={80}
            onChange={(event) => setName(event.target.value)}
            autoFocus
          />
          <button type="submit" className="btn btn-small btn-primary" disabled={changing}>
            Save name
          </button>
          <button type="button" className="btn btn-small" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <span className="saved-search-name">
          <Link to={`/?${search.query}`}>{search.name}</Link>
          {search.paused && <span className="saved-search-paused"> (paused)</span>}
        </span>
      )}
      <select
        aria-label={`E-mail for ${search.name}`}
        value={search.email}
        disabled={changing}
        onChange={(event) => void apply({ email: event.target.value as SavedSearchEmail })}
      >
        {EMAIL_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {!renaming && (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            setName(search.name)
            setRenaming(true)
          }}
          aria-label={`Rename ${search.name}`}
        >
          Rename
        </button>
      )}
      <button
        type="button"
        className="btn btn-small"
        disabled={changing}
        onClick={() => void apply({ paused: !search.paused })}
        aria-label={`${search.paused ? 'Resume' : 'Pause'} ${search.name}`}
      >
        {search.paused ? 'Resume' : 'Pause'}
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={removing}
        onClick={() => void erase()}
        aria-label={`Delete ${search.name}`}
      >
        Delete
      </button>
    </li>
  )
}
