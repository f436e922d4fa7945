import { useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { Messages } from '@marketplace/contracts/validation'
import { useAppSelector } from '@/app/hooks'
import { ConfirmModal } from '@/components/ui/Modal'
import { paths } from '@/config/paths'
import { selectCurrentUser } from '@/lib/auth-slice'
import { useDeleteAccountMutation } from '@/features/settings/account-api'
import { InfoTooltip } from '@/components/ui/InfoTooltip'
import { errorMessage } from '@/lib/api'
import { useSignOut } from '@/lib/use-sign-out'
import { BellIcon } from '@/components/icons/BellIcon'
import { StarIcon } from '@/components/icons/StarIcon'
import { BanknoteIcon, LeafIcon, LinkIcon, TargetIcon } from '@/components/icons/BenefitIcons'
import '@/features/settings/settings.css'
import '@/features/settings/others/others.css'

const STAY_WITH_US =
  "We'd hate to see you leave. Here are some amazing features you might miss out on. Stay with us!"

/** The six benefit cards, each with one of the app's own icons (components/icons). */
const BENEFITS = [
  {
    Icon: BanknoteIcon,
    title: '100% Free Platform',
    description: 'Publish posts, find people and send requests without paying a thing.',
  },
  {
    Icon: BellIcon,
    title: 'Smart Notifications',
    description: 'Know at once when someone requests your post or accepts your request.',
  },
  {
    Icon: LinkIcon,
    title: 'Direct Connections',
    description: 'Talk with posters and workers directly, with no middleman taking a cut.',
  },
  {
    Icon: TargetIcon,
    title: 'Personalized Posts',
    description: 'A feed that follows your location, your categories and your interests.',
  },
  {
    Icon: StarIcon,
    title: 'Save Favorites',
    description: 'Keep the posts and people you like close at hand for later.',
  },
  {
    Icon: LeafIcon,
    title: 'Distraction-Free',
    description: 'No ads and no clutter: just the jobs and the people who do them.',
  },
]

/** Settings › Others: account deletion, with its 30-day grace period. */
export default function OthersPage() {
  const user = useAppSelector(selectCurrentUser)
  const navigate = useNavigate()
  const [deleteAccount, { isLoading }] = useDeleteAccountMutation()
  const signOut = useSignOut()
  const [confirming, setConfirming] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const close = () => {
    if (isLoading) return
    setConfirming(false)
    setProblem(null)
  }

  const confirm = async () => {
    if (!user?._id) {
      setProblem(Messages.account.userIdNotFound)
      return
    }
    setProblem(null)
    try {
      await deleteAccount(user._id).unwrap()
    } catch (failure) {
      setProblem(errorMessage(failure, Messages.account.deleteFailed))
      return
    }
    // The server ended every session; this side forgets it and every cached answer, and
    // GET /logout clears the browser's cookies of a session that is already dead.
    void signOut()
    navigate(paths.home)
    window.alert(Messages.account.deleted)
  }

  return (
    <div className="settings-page others-page">
      <h1>
        Before You Go...
        <InfoTooltip text={STAY_WITH_US} />
      </h1>
      <ul className="benefits-grid">
        {BENEFITS.map((benefit) => (
          <li key={benefit.title} className="card card-body benefit-card">
            <benefit.Icon className="benefit-icon" size={32} />
            <h2>{benefit.title}</h2>
            <p className="muted">{benefit.description}</p>
          </li>
        ))}
      </ul>
      <div className="others-actions">
        <Link to={paths.home} className="btn btn-primary">
          Return to Homepage
        </Link>
        <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
          I still want to delete my account
        </button>
      </div>
      <section className="card card-body deletion-info" aria-labelledby="deletion-info-title">
        <h2 id="deletion-info-title">What happens when you delete your account</h2>
        <p>
          Your account, profile and posts disappear from the marketplace at once and you are signed
          out everywhere. Everything is then kept for a 30-day grace period, after which your data
          is permanently deleted.
        </p>
        <p>
          Changed your mind? Within those 30 days, go to the login page, sign in with your email and
          password, and choose <strong>Keep my account</strong>: the deletion is cancelled and you
          are signed in again with everything as you left it. After 30 days the account can no
          longer be recovered.
        </p>
      </section>
      {confirming && (
        <ConfirmModal
          title="Are you absolutely sure?"
          message="This action cannot be undone. All your data will be permanently deleted."
          confirmLabel="Yes, delete my account"
          busyLabel="Deleting..."
          busy={isLoading}
          error={problem}
          onConfirm={() => void confirm()}
          onCancel={close}
        />
      )}
    </div>
  )
}
