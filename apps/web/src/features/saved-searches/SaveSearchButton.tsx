import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { useAppSelector } from '@/app/hooks'
import { paths } from '@/config/paths'
import { errorMessage } from '@/lib/api'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import { useSaveSearchMutation } from './saved-searches-api'
import './saved-searches.css'

const SAVE_FAILED = 'The search could not be saved. Please try again.'

/**
 * "Save this search" on the home page: names the feed's current state (`query`, the home
 * page's URL query) and saves it, so new posts that match it are announced (Settings › Saved
 * searches manages them). Signed-in users only: alerts go to an account.
 */
export function SaveSearchButton({
  query,
  suggestedName,
}: {
  query: string
  suggestedName: string
}) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn)
  const [save, { isLoading }] = useSaveSearchMutation()
  const [naming, setNaming] = useState(false)
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [savedName, setSavedName] = useState<string | null>(null)

  if (!isLoggedIn) return null

  const open = () => {
    setName(suggestedName)
    setProblem(null)
    setSavedName(null)
    setNaming(true)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    try {
      const saved = await save({ name, query }).unwrap()
      setSavedName(saved.name)
      setNaming(false)
    } catch (failure) {
      setProblem(errorMessage(failure, SAVE_FAILED))
    }
  }

  return (
    <div className="save-search">
      {!naming && (
        <button type="button" className="btn btn-small" onClick={open}>
          Save this search
        </button>
      )}
      {naming && (
        <form className="save-search-form" onSubmit={(event) => void submit(event)}>
          <label htmlFor="save-search-name">Name this search</label>
          <input
            id="save-search-name"
            value={name}
            maxLength={80}
            onChange={(event) => setName(event.target.value)}
            autoFocus
          />
          <button type="submit" className="btn btn-small btn-primary" disabled={isLoading}>
            Save
          </button>
          <button type="button" className="btn btn-small" onClick={() => setNaming(false)}>
            Cancel
          </button>
        </form>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {savedName && (
        <p className="save-search-done" role="status">
          Saved &ldquo;{savedName}&rdquo;. We will let you know when a new post matches it.{' '}
          <Link to={paths.settings.savedSearches}>Manage saved searches</Link>
        </p>
      )}
    </div>
  )
}
