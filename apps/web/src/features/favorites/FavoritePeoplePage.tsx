import { useState } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser } from '@/features/auth/auth-slice'
import {
  useGetFavoritePeopleQuery,
  useRemoveFavoritePersonMutation,
  type FavoritePersonEntry,
} from '@/features/favorites/favorites-api'
import { personName, skillsText } from '@/features/people/person-display'
import { ConfirmModal } from '@/components/ui/Modal'
import { DEFAULT_PROFILE_PICTURE, imageUrl } from '@/lib/images'
import { Messages } from '@marketplace/contracts/validation'
import '@/features/requests/requests.css'
import './favorites.css'

/** spec 2 §2.11 Favorite people. */
export default function FavoritePeoplePage() {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const {
    data: entries = [],
    isLoading,
    isError,
  } = useGetFavoritePeopleQuery(user?._id ?? '', {
    skip: !user,
  })
  const [removeFavorite, removeState] = useRemoveFavoritePersonMutation()
  const [removing, setRemoving] = useState<FavoritePersonEntry | null>(null)

  const confirmRemove = async (entry: FavoritePersonEntry) => {
    if (!user) return
    try {
      await removeFavorite({
        userId: user._id,
        personId: entry.personID ?? entry.favoriteID._id,
      }).unwrap()
    } catch {
      // spec 2 §8: a failed favorite removal is silent.
    }
    setRemoving(null)
  }

  let body
  if (!user) {
    body = (
      <p className="error-state" role="alert">
        {Messages.favorites.loginToViewPeople}
      </p>
    )
  } else if (isLoading) {
    body = (
      <p className="page-loading" role="status">
        Loading your favorite people...
      </p>
    )
  } else if (isError) {
    body = (
      <p className="error-state" role="alert">
        {Messages.favorites.loadPeopleFailed}
      </p>
    )
  } else if (entries.length === 0) {
    body = <p className="empty-state">You have not added any people to your favorites yet</p>
  } else {
    body = (
      <ul className="grid" role="list" aria-label="Favorite people">
        {entries.map((entry) => {
          const person = entry.favoriteID
          const name = personName(person)
          const skills = skillsText(person.skills)
          return (
            <li key={entry.personID ?? person._id} className="card settings-card" aria-label={name}>
              <img
                className="settings-card-picture favorite-person-picture"
                src={imageUrl(person.profilePicture, DEFAULT_PROFILE_PICTURE)}
                alt=""
              />
              <div className="card-body">
                <h3 className="settings-card-title">{name}</h3>
                {skills && <p className="muted">{skills}</p>}
                <div className="settings-card-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => dispatch(modalOpened({ kind: 'workerDetails', person }))}
                  >
                    Details
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-primary"
                    onClick={() => dispatch(modalOpened({ kind: 'requestPerson', person }))}
                  >
                    Request
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => setRemoving(entry)}
                  >
                    Remove
                  </button>
                </div>
              </div>
            </li>
          )
        })}
      </ul>
    )
  }

  return (
    <section className="settings-list-page" aria-labelledby="favorite-people-title">
      <header className="settings-list-header">
        <h1 id="favorite-people-title">Favorite people</h1>
      </header>
      <p className="muted settings-info">
        Find your favorite people here. You can request them for a post or just remove them.
      </p>
      {body}
      {removing && (
        <ConfirmModal
          title="Remove from Favorites"
          message={`Are you sure you want to remove "${removing.favoriteID.firstName} ${removing.favoriteID.lastName}" from your favorites?`}
          confirmLabel="Remove"
          busy={removeState.isLoading}
          onCancel={() => setRemoving(null)}
          onConfirm={() => confirmRemove(removing)}
        />
      )}
    </section>
  )
}
