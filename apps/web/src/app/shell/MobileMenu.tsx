import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { useShellActions } from '@/app/shell/use-shell-actions'
import { paths } from '@/config/paths'
import { CountBadge, countLabel } from '@/components/ui/CountBadge'

/**
 * The hamburger menu at 768 px and below: the same items as the bar.
 * The top bar closes it on a click outside (its wrapper holds the toggle too).
 */
export function MobileMenu({ id, onClose }: { id: string; onClose: () => void }) {
  const { user, loggedIn, isModerator, unreadMessages, showFeed, makePost, logout } =
    useShellActions()

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])

  const then = (action: () => void) => () => {
    onClose()
    action()
  }

  return (
    <div className="mobile-menu" id={id}>
      <nav aria-label="Menu">
        <ul>
          {loggedIn && user && <li className="mobile-menu-greeting">Hello {user.firstName}</li>}
          <li>
            <button type="button" className="shell-menu-item" onClick={then(() => showFeed('job'))}>
              Find posts
            </button>
          </li>
          <li>
            <button
              type="button"
              className="shell-menu-item"
              onClick={then(() => showFeed('worker'))}
            >
              Find people
            </button>
          </li>
          {loggedIn ? (
            <>
              <li>
                <Link className="shell-menu-item" to={paths.settings.account} onClick={onClose}>
                  Settings
                </Link>
              </li>
              <li>
                <Link
                  className="shell-menu-item shell-menu-count"
                  to={paths.messages.list}
                  aria-label={countLabel('Messages', unreadMessages)}
                  onClick={onClose}
                >
                  Messages
                  <CountBadge count={unreadMessages} />
                </Link>
              </li>
              <li>
                <button type="button" className="shell-menu-item" onClick={then(makePost)}>
                  Make a post
                </button>
              </li>
              {isModerator && (
                <li>
                  <Link
                    className="shell-menu-item"
                    to={paths.settings.moderation}
                    onClick={onClose}
                  >
                    Moderation
                  </Link>
                </li>
              )}
              <li>
                <button
                  type="button"
                  className="shell-menu-item"
                  onClick={then(() => void logout())}
                >
                  Logout
                </button>
              </li>
            </>
          ) : (
            <>
              <li>
                <Link className="shell-menu-item" to={paths.login} onClick={onClose}>
                  Login
                </Link>
              </li>
              <li>
                <Link className="shell-menu-item" to={paths.signup} onClick={onClose}>
                  Sign up
                </Link>
              </li>
            </>
          )}
        </ul>
      </nav>
    </div>
  )
}
