import { useEffect, useId, useState, type FormEvent } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { useGetUserQuery } from '@/features/settings/account-api'
import { selectCurrentUser } from '@/lib/auth-slice'
import { DISTANCE_CHOICES_MILES } from '@/features/feed/distance'
import { feedActions, selectFeed } from '@/features/feed/feed-slice'

const ANY = 'any'

/**
 * The feed's Within control: any distance, or 5, 10, 25 or 50 miles of a place (a town or a
 * US ZIP code). The place is sent when a distance is chosen, on Enter and when the field is
 * left; an empty place is any distance.
 */
export function DistanceFilter({ compact = false }: { compact?: boolean }) {
  const dispatch = useAppDispatch()
  const feed = useAppSelector(selectFeed)
  const withinId = useId()
  const placeId = useId()
  const [place, setPlace] = useState(feed.near)
  useEffect(() => setPlace(feed.near), [feed.near])
  // A signed-in user's home place (Settings > Account) is where the control starts.
  const user = useAppSelector(selectCurrentUser)
  const homePlace = useGetUserQuery(user?._id ?? '', { skip: !user }).data?.homePlace
  useEffect(() => {
    if (homePlace) dispatch(feedActions.homePlaceKnown(homePlace))
  }, [dispatch, homePlace])

  const choose = (within: number | null, text: string) => {
    const near = within === null ? '' : text.trim()
    if (near === feed.near && (within ?? feed.within) === feed.within) return
    dispatch(feedActions.nearSelected({ near, within: within ?? feed.within }))
  }
  const chosen = feed.near ? String(feed.within) : ANY
  const submit = (event: FormEvent) => {
    event.preventDefault()
    choose(feed.within, place)
  }

  return (
    <form className="feed-toolbar-group feed-distance" aria-label="Distance" onSubmit={submit}>
      <label htmlFor={withinId} className={compact ? 'visually-hidden' : undefined}>
        Within
      </label>
      <select
        id={withinId}
        value={chosen}
        onChange={(event) =>
          choose(event.target.value === ANY ? null : Number(event.target.value), place)
        }
      >
        <option value={ANY}>{compact ? 'Within: any distance' : 'Any distance'}</option>
        {DISTANCE_CHOICES_MILES.map((miles) => (
          <option key={miles} value={miles}>
            {miles} mi
          </option>
        ))}
      </select>
      <label htmlFor={placeId} className="visually-hidden">
        Of place
      </label>
      <input
        id={placeId}
        type="text"
        inputMode="search"
        placeholder="of town or ZIP"
        maxLength={100}
        value={place}
        onChange={(event) => setPlace(event.target.value)}
        onBlur={() => {
          if (place.trim() !== feed.near) choose(place.trim() ? feed.within : null, place)
        }}
      />
    </form>
  )
}
