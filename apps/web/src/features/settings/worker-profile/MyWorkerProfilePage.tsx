import { useCallback, useState } from 'react'
import { Messages } from '@marketplace/contracts/validation'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { useGetUserQuery, useSetWorkerStatusMutation } from '@/features/settings/account-api'
import { WorkerProfileModal } from '@/features/settings/worker-profile/WorkerProfileModal'
import { errorMessage } from '@/lib/api'
import { DEFAULT_PROFILE_PICTURE } from '@/lib/images'
import { Picture } from '@/components/ui/Picture'
import type { PersonSelfView } from '@marketplace/contracts/api'
import { RatingText } from '@/components/ui/RatingText'
import '@/features/settings/settings.css'
import '@/features/settings/worker-profile/worker-profile.css'

const NOT_SPECIFIED = 'Not specified'

/** The signed-in user's worker profile. */
export default function MyWorkerProfilePage() {
  const user = useAppSelector(selectCurrentUser)
  if (!user) {
    return (
      <div className="settings-page">
        <p className="empty-state">{Messages.workerProfile.loginToView}</p>
      </div>
    )
  }
  return <WorkerProfile userId={user._id} />
}

function WorkerProfile({ userId }: { userId: string }) {
  const { data: profile, isLoading, isError, error, refetch } = useGetUserQuery(userId)
  const [modalOpen, setModalOpen] = useState(false)
  const closeModal = useCallback(() => setModalOpen(false), [])

  if (isLoading) {
    return (
      <p className="page-loading" role="status">
        Loading...
      </p>
    )
  }
  if (isError || !profile) {
    return (
      <div className="settings-page error-state" role="alert">
        <p>{errorMessage(error, 'Failed to load your profile. Please try again later.')}</p>
        <button type="button" className="btn" onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    )
  }

  return (
    <div className="settings-page worker-profile-page">
      {profile.isWorker ? (
        <WorkerProfileView profile={profile} userId={userId} onEdit={() => setModalOpen(true)} />
      ) : (
        <section className="card card-body empty-state worker-create-prompt">
          <h1>Create Your Profile</h1>
          <p>Set up your profile to start receiving and sending request on posts</p>
          <button type="button" className="btn btn-primary" onClick={() => setModalOpen(true)}>
            Create Profile
          </button>
        </section>
      )}
      {modalOpen && <WorkerProfileModal userId={userId} profile={profile} onClose={closeModal} />}
    </div>
  )
}

function WorkerProfileView({
  profile,
  userId,
  onEdit,
}: {
  profile: PersonSelfView
  userId: string
  onEdit: () => void
}) {
  const [setStatus, { isLoading: switching }] = useSetWorkerStatusMutation()
  const [problem, setProblem] = useState<string | null>(null)

  const toggleOnline = async () => {
    setProblem(null)
    try {
      await setStatus({ id: userId, isOnline: !profile.isOnline }).unwrap()
    } catch (failure) {
      console.error('Worker status not changed', failure)
      setProblem(errorMessage(failure, 'Failed to change your status. Please try again.'))
    }
  }

  const rating = profile.rating
  return (
    <article className="card card-body worker-profile">
      <header className="worker-profile-header">
        <Picture
          className="worker-profile-picture"
          picture={profile.profilePicture}
          placeholder={DEFAULT_PROFILE_PICTURE}
          use="avatar"
          sizes="96px"
          alt={`${profile.name || 'Your'} profile picture`}
        />
        <div className="worker-profile-heading">
          <h1>{profile.title || NOT_SPECIFIED}</h1>
          <p className="muted">{profile.name}</p>
          {rating && rating.average != null && rating.count > 0 && (
            <RatingText
              className="worker-rating"
              text={`${rating.average.toFixed(1)} (${rating.count})`}
            />
          )}
        </div>
        <div className="worker-profile-controls">
          <label className="worker-online-switch">
            <input
              type="checkbox"
              role="switch"
              checked={profile.isOnline}
              disabled={switching}
              onChange={() => void toggleOnline()}
            />
            <span>{profile.isOnline ? 'Online' : 'Offline'}</span>
          </label>
          <button type="button" className="btn" onClick={onEdit}>
            Edit Profile
          </button>
        </div>
      </header>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <section className="worker-section">
        <h2>Skills</h2>
        {profile.skills.length > 0 ? (
          <ul className="worker-skills">
            {profile.skills.map((skill) => (
              <li key={skill} className="badge">
                {skill}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No skills listed</p>
        )}
      </section>
      <section className="worker-section">
        <h2>Availability</h2>
        <p>{profile.availability || NOT_SPECIFIED}</p>
      </section>
      <section className="worker-section">
        <h2>Payment Type</h2>
        <p>{profile.paymentType || NOT_SPECIFIED}</p>
      </section>
      <section className="worker-section">
        <h2>Location</h2>
        <p>{profile.location || NOT_SPECIFIED}</p>
      </section>
      {profile.infos && (
        <section className="worker-section">
          <h2>Additional Information</h2>
          <p className="worker-infos">{profile.infos}</p>
        </section>
      )}
      {profile.contacts.length > 0 && (
        <section className="worker-section">
          <h2>Contacts</h2>
          <ul className="worker-contacts">
            {profile.contacts.map((contact) => (
              <li key={contact.value}>
                {contact.value}
                {contact.visibility === 'hidden' && (
                  <span className="muted"> (hidden from public)</span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  )
}
