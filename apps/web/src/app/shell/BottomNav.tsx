import { useLocation } from 'react-router-dom'
import { PeopleIcon, PlusIcon, PostsIcon } from '@/app/shell/Icons'
import { useShellActions } from '@/app/shell/use-shell-actions'
import { paths } from '@/config/paths'

/**
 * spec 1 §2 "Home feed": the mobile bottom navigation (shown at 768 px and below by
 * shell.css): Posts, People, and Create, only when logged in, which opens "Add a post".
 */
export function BottomNav() {
  const { pathname } = useLocation()
  const { loggedIn, feedType, showFeed, makePost } = useShellActions()
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
    </nav>
  )
}
