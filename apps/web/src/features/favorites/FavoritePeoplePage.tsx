import type { FavoritePersonEntry } from '@marketplace/contracts/api'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser } from '@/lib/auth-slice'
import {
  useGetFavoritePeopleQuery,
  useRemoveFavoritePersonMutation,
} from '@/features/favorites/favorites-api'
import { FavoritesContent, type FavoritesTexts } from '@/features/favorites/FavoritesContent'
import { useFavoritesList } from '@/features/favorites/use-favorites-list'
import { personName, skillsText } from '@/lib/person-display'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import { settingsCardSizes } from '@/components/ui/settings-card-sizes'
import { Messages } from '@marketplace/contracts/validation'
import '@/components/ui/list-page.css'
import './favorites.css'

/** The texts of the list's states and of a removal. */
const TEXTS: FavoritesTexts<FavoritePersonEntry> = {
  signedOut: Messages.favorites.loginToViewPeople,
  loading: 'Loading your favorite people...',
  failed: Messages.favorites.loadPeopleFailed,
  empty: 'You have not added any people to your favorites yet',
  removeQuestion: ({ favoriteID: person }) =>
    `Are you sure you want to remove "${person.firstName} ${person.lastName}" from your favorites?`,
}

/** Settings › Favorite people. */
export default function FavoritePeoplePage() {
  const dispatch = useAppDispatch()
  const user = useAppSelector(selectCurrentUser)
  const favorites = useGetFavoritePeopleQuery(user?._id ?? '', { skip: !user })
  const entries = favorites.data ?? []
  const [removeFavorite, removeState] = useRemoveFavoritePersonMutation()
  const list = useFavoritesList(user?._id, favorites, entries, {
    remove: (userId, entry) =>
      removeFavorite({ userId, personId: entry.personID ?? entry.favoriteID._id }).unwrap(),
    busy: removeState.isLoading,
  })

  function renderList() {
    return (
      <ul className="grid" role="list" aria-label="Favorite people">
        {entries.map((entry) => {
          const person = entry.favoriteID
          const name = personName(person)
          const skills = skillsText(person.skills)
          return (
            <li key={entry.personID ?? person._id} className="card settings-card" aria-label={name}>
              <Picture
                className="settings-card-picture favorite-person-picture"
                picture={person.profilePicture}
                placeholder={DEFAULT_PROFILE_PICTURE}
                use="card"
                sizes={settingsCardSizes('grid')}
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
                  <button type="button" className="btn btn-small" onClick={() => list.ask(entry)}>
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
      <FavoritesContent list={list} texts={TEXTS} renderList={renderList} />
    </section>
  )
}
