import { useState } from 'react'
import { NavLink, Outlet } from 'react-router-dom'
import { ROLES } from '@marketplace/contracts/marketplace'
import { hasAnyRole } from '@/lib/roles'
import { useAppSelector } from '@/app/hooks'
import { useIsMobile } from '@/hooks/use-is-mobile'
import { paths } from '@/config/paths'
import { selectRoles } from '@/lib/auth-slice'
import { CountBadge, countLabel } from '@/components/ui/CountBadge'
import { selectUnreadMessageTotal } from '@/features/conversations/unread-api'
import './settings.css'

const s = paths.settings

/** The settings sidebar, in the order the product's design gives. */
const ENTRIES: ReadonlyArray<{ label: string; to: string }> = [
  { label: 'Account', to: s.account },
  { label: 'My Profile', to: s.myWorkerProfile },
  { label: 'My Posts', to: s.myPosts },
  { label: 'Posts I requested', to: s.postsIRequested },
  { label: 'Requests on my posts', to: s.requestsOnMyPosts },
  { label: 'People I requested', to: s.peopleIRequested },
  { label: 'People requested me', to: s.peopleRequestedMe },
  // The conversations of those requests, with the unread total.
  { label: 'Messages', to: paths.messages.list },
  { label: 'Favorite people', to: s.favoritePeople },
  { label: 'Favorite posts', to: s.favoritePosts },
  { label: 'Security', to: s.security },
  { label: 'Blocked users', to: s.blockedUsers },
  { label: 'Saved searches', to: s.savedSearches },
  { label: 'Notifications', to: s.notifications },
  { label: 'Help & Support', to: s.helpSupport },
  { label: 'Others', to: s.others },
  { label: 'Stats', to: s.stats },
  { label: 'Rate your workers', to: s.rateWorkers },
]

/**
 * Every settings page inside one layout. The sidebar collapses on
 * mobile (<= 768 px) behind a toggle and closes again once an entry is chosen.
 */
export default function SettingsLayout() {
  const roles = useAppSelector(selectRoles)
  const unreadMessages = useAppSelector(selectUnreadMessageTotal)
  const isMobile = useIsMobile()
  const [open, setOpen] = useState(false)
  const entries = hasAnyRole(roles, [ROLES.Admin, ROLES.Editor])
    ? [
        ...ENTRIES,
        { label: 'Moderation', to: s.moderation },
        { label: 'Analytics', to: s.analytics },
      ]
    : ENTRIES
  const expanded = !isMobile || open

  return (
    <div className="settings-layout">
      <aside className="settings-sidebar">
        {isMobile && (
          <button
            type="button"
            className="btn settings-toggle"
            aria-expanded={open}
            aria-controls="settings-nav"
            onClick={() => setOpen((value) => !value)}
          >
            {open ? 'Hide settings menu' : 'Settings menu'}
          </button>
        )}
        <nav
          id="settings-nav"
          aria-label="Settings"
          className={expanded ? 'settings-nav' : 'settings-nav settings-nav-collapsed'}
          hidden={!expanded}
        >
          <ul>
            {entries.map((entry) => (
              <li key={entry.to}>
                <NavLink
                  to={entry.to}
                  className={({ isActive }) =>
                    isActive ? 'settings-link settings-link-active' : 'settings-link'
                  }
                  aria-label={
                    entry.to === paths.messages.list
                      ? countLabel(entry.label, unreadMessages)
                      : undefined
                  }
                  onClick={() => setOpen(false)}
                >
                  {entry.label}
                  {entry.to === paths.messages.list && <CountBadge count={unreadMessages} />}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <section className="settings-content">
        <Outlet />
      </section>
    </div>
  )
}
