import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { CaretIcon } from '@/components/icons/NavIcons'
import { CountBadge, countLabel } from '@/components/ui/CountBadge'
import { useShellActions } from '@/app/shell/use-shell-actions'
import { paths } from '@/config/paths'
import { useClickOutside } from '@/hooks/use-click-outside'

/**
 * The signed-in user's greeting and menu: Settings, Messages with the
 * unread total (also on the menu's button while it is closed), Make a post,
 * Moderation for Admin and Editor, Logout. A click outside or Escape closes it.
 */
export function UserMenu() {
  const { user, isModerator, unreadMessages, makePost, logout } = useShellActions()
  const [open, setOpen] = useState(false)
  const wrapper = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const menuId = useId()
  const close = useCallback(() => setOpen(false), [])
  useClickOutside(wrapper, close, open)

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])

  if (!user) return null
  return (
    <div className="user-menu" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost user-menu-button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={
          open
            ? undefined
            : countLabel(`Hello ${user.firstName}`, unreadMessages, 'unread messages')
        }
        onClick={() => setOpen((value) => !value)}
      >
        <span className="avatar" aria-hidden="true">
          {user.firstName.charAt(0).toUpperCase()}
        </span>
        Hello {user.firstName}
        {!open && <CountBadge count={unreadMessages} />}
        <CaretIcon />
      </button>
      {open && (
        <ul className="shell-dropdown user-menu-list" id={menuId} aria-label="User menu">
          <li>
            <Link className="shell-menu-item" to={paths.settings.account} onClick={close}>
              Settings
            </Link>
          </li>
          <li>
            <Link
              className="shell-menu-item shell-menu-count"
              to={paths.messages.list}
              aria-label={countLabel('Messages', unreadMessages)}
              onClick={close}
            >
              Messages
              <CountBadge count={unreadMessages} />
            </Link>
          </li>
          <li>
            <button
              type="button"
              className="shell-menu-item"
              onClick={() => {
                close()
                makePost()
              }}
            >
              Make a post
            </button>
          </li>
          {isModerator && (
            <li>
              <Link className="shell-menu-item" to={paths.settings.moderation} onClick={close}>
                Moderation
              </Link>
            </li>
          )}
          <li>
            <button
              type="button"
              className="shell-menu-item"
              onClick={() => {
                close()
                void logout()
              }}
            >
              Logout
            </button>
          </li>
        </ul>
      )}
    </div>
  )
}
