import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useSetHomePlaceMutation } from '@/features/settings/account-api'
import { errorMessage } from '@/lib/api'
import { FormField } from '@/components/ui/FormField'
import { HOME_PLACE_SECTION } from '@/config/page-headings'

/**
 * Settings > Account: the home place, where the feed's Within control starts (a town or a US
 * ZIP code; only you see it). Empty clears it. While the account is `loading` the section
 * shows with its field and button disabled; the saved place fills the field when it comes.
 */
export function HomePlaceForm({
  userId,
  saved,
  loading = false,
}: {
  userId: string
  saved: string
  loading?: boolean
}) {
  const id = useId()
  const [place, setPlace] = useState(saved)
  const [notice, setNotice] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [setHomePlace, { isLoading }] = useSetHomePlaceMutation()
  // The saved place fills the field, unless the person has typed since: the account's
  // refetch after a save can land while they are already changing it again.
  const edited = useRef(false)
  useEffect(() => {
    if (!edited.current) setPlace(saved)
  }, [saved])

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    setProblem(null)
    try {
      const answer = await setHomePlace({ id: userId, homePlace: place.trim() }).unwrap()
      edited.current = false
      setNotice(
        answer.homePlace
          ? `The feed now starts near ${answer.homePlace}.`
          : 'Your home place is cleared.',
      )
    } catch (error) {
      setProblem(errorMessage(error, 'Your home place could not be saved. Please try again.'))
    }
  }

  return (
    <form className="card card-body account-form home-place-form" onSubmit={save} noValidate>
      <h2>{HOME_PLACE_SECTION.title}</h2>
      <FormField id={id} label="Town or ZIP code">
        <input
          id={id}
          type="text"
          maxLength={100}
          placeholder="Austin, TX"
          disabled={loading}
          value={place}
          onChange={(event) => {
            edited.current = true
            setPlace(event.target.value)
          }}
        />
      </FormField>
      <p className="field-hint">{HOME_PLACE_SECTION.hint}</p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {notice && (
        <p className="form-success" role="status">
          {notice}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={loading || isLoading}>
          {isLoading ? 'Saving...' : 'Save home place'}
        </button>
      </div>
    </form>
  )
}
