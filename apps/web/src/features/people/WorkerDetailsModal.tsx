import { useCloseModal } from '@/app/modals/use-close-modal'
import { useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router-dom'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { selectCurrentUser, selectIsLoggedIn } from '@/lib/auth-slice'
import {
  useAddFavoritePersonMutation,
  useGetFavoritePeopleQuery,
  useRemoveFavoritePersonMutation,
} from '@/features/favorites/favorites-api'
import { ageText, personName, ratingText, skillsText } from '@/lib/person-display'
import { Modal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import type { ShownPerson } from '@/lib/entities-api'
import { Messages } from '@marketplace/contracts/validation'
import { RatingText } from '@/components/ui/RatingText'
import { HeartIcon } from '@/components/icons/HeartIcon'
import { BlockUserButton } from '@/features/blocks/BlockUserButton'
import './people.css'

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

/**
 * Worker details: the viewer's own profile shows every contact and a Modify
 * button; others see the public contacts the server left, a favorite toggle, Request,
 * Report and Block.
 */
export default function WorkerDetailsModal({ person }: { person: ShownPerson }) {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const user = useAppSelector(selectCurrentUser)
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const isSelf = !!user && user._id === person._id
  const { data: favorites } = useGetFavoritePeopleQuery(user?._id ?? '', {
    skip: !loggedIn || !user || isSelf,
  })
  const [addFavorite, addState] = useAddFavoritePersonMutation()
  const [removeFavorite, removeState] = useRemoveFavoritePersonMutation()
  const [favoriteError, setFavoriteError] = useState<string | null>(null)
  const saved = !!favorites?.some((entry) => entry.personID === person._id)
  const close = useCloseModal()
  const name = personName(person)
  const age = ageText(person.age)
  const skills = skillsText(person.skills)
  const rating = ratingText(person.rating)
  const contacts = (person.contacts ?? []).filter((contact) => contact.value)

  const toggleFavorite = async () => {
    if (!loggedIn || !user) {
      setFavoriteError(Messages.favorites.loginRequired)
      return
    }
    setFavoriteError(null)
    try {
      if (saved) await removeFavorite({ userId: user._id, personId: person._id }).unwrap()
      else await addFavorite({ userID: user._id, personID: person._id }).unwrap()
    } catch {
      setFavoriteError(Messages.favorites.updateFailed)
    }
  }

  return (
    <Modal title={name || 'Worker details'} onClose={close} wide>
      <div className="worker-details">
        <div className="worker-details-head">
          <Picture
            className="worker-details-photo"
            picture={person.profilePicture}
            placeholder={DEFAULT_PROFILE_PICTURE}
            use="avatar"
            sizes="112px"
            alt={name ? `Photo of ${name}` : 'Profile photo'}
          />
          <div>
            {person.title && <p className="worker-details-title">{person.title}</p>}
            {age && <p className="muted">{age}</p>}
            {rating && <RatingText className="worker-details-rating" text={rating} />}
          </div>
        </div>
        <dl className="worker-details-fields">
          {skills && <Row label="Skills">{skills}</Row>}
          {person.availability && <Row label="Availability">{person.availability}</Row>}
          {person.paymentType && <Row label="Payment type">{person.paymentType}</Row>}
          {person.location && <Row label="Location">{person.location}</Row>}
          {person.infos && (
            <Row label="Infos">
              <span className="worker-details-infos">{person.infos}</span>
            </Row>
          )}
          {contacts.length > 0 && (
            <Row label="Contacts">
              <ul className="worker-details-contacts">
                {contacts.map((contact, index) => (
                  <li key={`${contact.value}-${index}`}>
                    {contact.value}
                    {isSelf && contact.visibility === 'hidden' && (
                      <span className="badge badge-warning">Hidden from public</span>
                    )}
                  </li>
                ))}
              </ul>
            </Row>
          )}
        </dl>
        {favoriteError && (
          <p className="form-error" role="alert">
            {favoriteError}
          </p>
        )}
        <div className="modal-actions">
          {isSelf ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                close()
                navigate(paths.settings.myWorkerProfile)
              }}
            >
              Modify
            </button>
          ) : (
            <>
              <button
                type="button"
                className={saved ? 'btn favorite-btn saved' : 'btn favorite-btn'}
                aria-pressed={saved}
                disabled={addState.isLoading || removeState.isLoading}
                onClick={toggleFavorite}
              >
                <HeartIcon filled={saved} />
                {saved ? 'Saved' : 'Save'}
              </button>
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => dispatch(modalOpened({ kind: 'reportPerson', person }))}
              >
                Report
              </button>
              {loggedIn && (
                <BlockUserButton
                  userId={person._id}
                  name={name}
                  className="btn"
                  onBlocked={close}
                />
              )}
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => dispatch(modalOpened({ kind: 'requestPerson', person }))}
              >
                Request {person.firstName || name}
              </button>
            </>
          )}
        </div>
      </div>
    </Modal>
  )
}
