import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import type { NotificationView } from '@marketplace/contracts/api'
import { useAfterFirstPaint } from '@/hooks/use-after-first-paint'
import { useClickOutside } from '@/hooks/use-click-outside'
import {
  flattenNotifications,
  useClearReadNotificationsMutation,
  useGetNotificationsInfiniteQuery,
  useGetUnreadCountQuery,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
} from '@/features/notifications/notifications-api'
import { relativeTime } from '@/components/ui/relative-time'
import { BellIcon } from '@/components/icons/BellIcon'
import { CloseIcon } from '@/components/icons/CloseIcon'
import { useLiveNotifications } from '@/features/notifications/use-live-notifications'
import { BlockUserButton } from '@/features/blocks/BlockUserButton'
import './notifications.css'

const badgeText = (count: number) => (count > 99 ? '99+' : String(count))

/**
 * The bell with the unread count;
 * opening it with unread ones marks them all read, and those stay highlighted while it is
 * open so the user still sees what was new. Rendered by the top bar for signed-in users only.
 */
export default function NotificationBell() {
  const [open, setOpen] = useState(false)
  /** The ones unread when the dropdown opened (marked read on the server meanwhile). */
  const [newAtOpening, setNewAtOpening] = useState<ReadonlySet<string>>(new Set())
  const wrapper = useRef<HTMLDivElement>(null)
  const bell = useRef<HTMLButtonElement>(null)
  const dropdownId = useId()
  const navigate = useNavigate()

  // The counts and the live connection start once the first screen has painted: on a phone
  // their requests would otherwise lengthen the first render's task.
  const started = useAfterFirstPaint()
  const { notice, dismissNotice } = useLiveNotifications({ enabled: started })
  // Fresh on every mount: the bell mounts at sign-in, and nothing of another session shows.
  const fresh = { refetchOnMountOrArgChange: true, skip: !started }
  const countQuery = useGetUnreadCountQuery(undefined, fresh)
  const list = useGetNotificationsInfiniteQuery(undefined, fresh)
  const [markAllRead] = useMarkAllNotificationsReadMutation()
  const [markRead] = useMarkNotificationReadMutation()
  const [clearRead, { isLoading: clearing }] = useClearReadNotificationsMutation()

  const notifications = flattenNotifications(list.data)
  const unreadCount = countQuery.data ?? list.data?.pages[0]?.unreadCount ?? 0

  const close = useCallback(() => setOpen(false), [])
  useClickOutside(wrapper, close, open)

  const toggle = () => {
    if (open) {
      setOpen(false)
      return
    }
    setOpen(true)
    dismissNotice()
    setNewAtOpening(new Set(notifications.filter((n) => !n.isRead).map((n) => n._id)))
    // Opening with unread ones marks them all read.
    if (unreadCount > 0) void markAllRead()
  }

  const select = (notification: NotificationView) => {
    if (!notification.isRead) void markRead(notification._id)
    if (notification.link?.startsWith('/')) {
      setOpen(false)
      navigate(notification.link)
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      setOpen(false)
      bell.current?.focus()
    }
  }

  const hasRead = notifications.some((n) => n.isRead)
  const label =
    unreadCount > 0
      ? `Notifications, ${unreadCount} unread`
      : 'Notifications, no unread notifications'

  return (
    <div className="notif" ref={wrapper} onKeyDown={onKeyDown}>
      <button
        ref={bell}
        type="button"
        className="icon-btn notif-bell"
        aria-label={label}
        aria-expanded={open}
        aria-controls={dropdownId}
        onClick={toggle}
      >
        <BellIcon />
        {unreadCount > 0 && (
          <span className="notif-badge" aria-hidden>
            {badgeText(unreadCount)}
          </span>
        )}
      </button>

      {open && (
        <section id={dropdownId} className="notif-dropdown" aria-label="Notifications">
          <header className="notif-header">
            <h2>Notifications</h2>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => void clearRead()}
              disabled={clearing || !hasRead}
            >
              Clear Read
            </button>
          </header>

          {list.isLoading ? (
            <p className="notif-state muted">Loading notifications...</p>
          ) : list.isError && notifications.length === 0 ? (
            <div className="notif-state error-state">
              <p>Failed to load notifications</p>
              <button type="button" className="btn btn-small" onClick={() => void list.refetch()}>
                Try again
              </button>
            </div>
          ) : notifications.length === 0 ? (
            <p className="notif-state muted">No notifications</p>
          ) : (
            <ul className="notif-list">
              {notifications.map((notification) => {
                const unread = !notification.isRead || newAtOpening.has(notification._id)
                return (
                  <li key={notification._id} className="notif-entry">
                    <button
                      type="button"
                      className={unread ? 'notif-item is-unread' : 'notif-item'}
                      onClick={() => select(notification)}
                    >
                      {unread && <span className="visually-hidden">New: </span>}
                      <span className="notif-message">{notification.message}</span>
                      <time className="notif-time" dateTime={notification.createdAt}>
                        {relativeTime(notification.createdAt)}
                      </time>
                    </button>
                    {/* Who caused it, when a person did: blocking them from here (docs/blocking.md). */}
                    {notification.actorId && (
                      <BlockUserButton
                        userId={notification.actorId}
                        className="btn btn-small notif-block"
                        label={`Block who sent: ${notification.message}`}
                      />
                    )}
                  </li>
                )
              })}
            </ul>
          )}

          {list.hasNextPage && notifications.length > 0 && (
            <div className="notif-footer">
              <button
                type="button"
                className="btn btn-small btn-block"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                Load More
              </button>
            </div>
          )}
        </section>
      )}

      {/* A live region that is always there, so a notice put in it is announced. */}
      <div className="notif-toast-region" role="status">
        {notice && !open && (
          <div className="notif-toast">
            <span>{notice.message}</span>
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={dismissNotice}>
              <CloseIcon size={16} />
            </button>
          </div>
        )}
      </div>
    </div>
  )
}
