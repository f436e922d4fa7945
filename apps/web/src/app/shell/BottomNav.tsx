import { Link, useLocation } from 'react-router-dom'
import { MessagesIcon, PeopleIcon, PlusIcon, PostsIcon } from '@/components/icons/NavIcons'
import { CountBadge, countLabel } from '@/components/ui/CountBadge'
import { useShellActions } from '@/app/shell/use-shell-actions'
import { paths } from '@/config/paths'

/**
 * The mobile bottom navigation (shown at 768 px and below by
 * shell.css): Posts, People, and, only when logged in, Create, which opens "Add a post", and
 * Messages with the unread total.
 */
export function BottomNav() {
  const { pathname } = useLocation()
  const { loggedIn, feedType, unreadMessages, showFeed, makePost } = useShellActions()
  const onHome = pathname === paths.home
  // Like the top bar, the login and signup pages keep the person on their form.
  if (pathname === paths.login || pathname === paths.signup) return null
  return (
    <nav className="bottom-nav" aria-label="Mobile navigation">
      <button
        type="button"
        className="bottom-nav-item"
        aria-pressed={onHome && feedType === 'job'}
        onClick={() => showFeed('job')}
      >
        <PostsIcon />
        <span>Posts</span>
      </button>
      <button
        type="button"
        className="bottom-nav-item"
        aria-pressed={onHome && feedType === 'worker'}
        onClick={() => showFeed('worker')}
      >
        <PeopleIcon />
        <span>People</span>
      </button>
      {loggedIn && (
        <button type="button" className="bottom-nav-item" onClick={makePost}>
          <PlusIcon />
          <span>Create</span>
        </button>
      )}
      {loggedIn && (
        <Link
          to={paths.messages.list}
          className="bottom-nav-item"
          aria-current={pathname.startsWith(paths.messages.list) ? 'page' : undefined}
          aria-label={countLabel('Messages', unreadMessages)}
        >
          <span className="bottom-nav-icon">
            <MessagesIcon />
            <CountBadge count={unreadMessages} />
          </span>
          <span>Messages</span>
          {unreadMessages > 0 && <span className="visually-hidden">, {unreadMessages} unread</span>}
        </Link>
      )}
    </nav>
  )
}
