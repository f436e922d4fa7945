import { lazy, Suspense, useCallback, useId, useRef, useState } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { BellIcon } from '@/components/icons/BellIcon'
import { CloseIcon } from '@/components/icons/CloseIcon'
import { MenuIcon } from '@/components/icons/NavIcons'
import { MobileMenu } from '@/app/shell/MobileMenu'
import { useShellActions } from '@/app/shell/use-shell-actions'
import { UserMenu } from '@/app/shell/UserMenu'
import { useClickOutside } from '@/hooks/use-click-outside'
import { paths } from '@/config/paths'
import { importWithRetry } from '@/lib/retry-import'
import FeedToolbar from '@/features/feed/FeedToolbar'
import SearchBar from '@/features/feed/search/SearchBar'

export const BRAND_NAME = 'Marketplace'

/**
 * The bell with its notifications (their API, the live connection: a third of the frame's
 * code) loads after the first render, in a chunk and a task of its own (total
 * blocking time on a phone); its counts start after the first paint anyway. Until then the
 * same icon holds its place, not yet a control.
 */
const NotificationBell = lazy(() =>
  importWithRetry(() => import('@/features/notifications/NotificationBell')),
)

function BellPlaceholder() {
  return (
    <span className="icon-btn notif-bell" aria-hidden="true">
      <BellIcon />
    </span>
  )
}

/**
 * Find posts, Find people and the search box for everyone; Login and
 * Sign up for guests; the bell, "Hello {first name}" and the user menu once signed in. On
 * /login and /signup only the brand link shows; on / the feed toolbar rides below.
 */
export function TopBar() {
  const { pathname } = useLocation()
  const { loggedIn, feedType, showFeed } = useShellActions()
  const [menuOpen, setMenuOpen] = useState(false)
  const menuWrapper = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const closeMenu = useCallback(() => setMenuOpen(false), [])
  useClickOutside(menuWrapper, closeMenu, menuOpen)

  const minimal = pathname === paths.login || pathname === paths.signup
  const onHome = pathname === paths.home

  return (
    <header className="topbar">
      <div className="topbar-main">
        <Link to={paths.home} className="brand">
          {BRAND_NAME}
        </Link>
        {!minimal && (
          <>
            <nav className="topbar-nav desktop-only" aria-label="Feeds">
              <button
                type="button"
                className="btn btn-ghost"
                aria-pressed={onHome && feedType === 'job'}
                onClick={() => showFeed('job')}
              >
                Find posts
              </button>
              <button
                type="button"
                className="btn btn-ghost"
                aria-pressed={onHome && feedType === 'worker'}
                onClick={() => showFeed('worker')}
              >
                Find people
              </button>
            </nav>
            <div className="topbar-search">
              <SearchBar />
            </div>
            <div className="topbar-actions">
              {loggedIn ? (
                <>
                  <Suspense fallback={<BellPlaceholder />}>
                    <NotificationBell />
                  </Suspense>
                  <div className="desktop-only">
                    <UserMenu />
                  </div>
                </>
              ) : (
                <div className="desktop-only topbar-guest">
                  <Link to={paths.login} className="btn btn-ghost">
                    Login
                  </Link>
                  <Link to={paths.signup} className="btn btn-primary">
                    Sign up
                  </Link>
                </div>
              )}
              <div className="mobile-only" ref={menuWrapper}>
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={menuOpen ? 'Close menu' : 'Open menu'}
                  aria-expanded={menuOpen}
                  aria-controls={menuId}
                  onClick={() => setMenuOpen((open) => !open)}
                >
                  {menuOpen ? <CloseIcon size={22} /> : <MenuIcon />}
                </button>
                {menuOpen && <MobileMenu id={menuId} onClose={closeMenu} />}
              </div>
            </div>
          </>
        )}
      </div>
      {onHome && (
        <div className="topbar-toolbar">
          <FeedToolbar />
        </div>
      )}
    </header>
  )
}
