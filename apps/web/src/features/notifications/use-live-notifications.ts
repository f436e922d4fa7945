import { useCallback, useEffect, useRef, useState } from 'react'
import type { NotificationView } from '@marketplace/contracts/api'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { selectAccessToken, selectCurrentUser } from '@/lib/auth-slice'
import { openLiveConnection } from '@/features/notifications/live-connection'
import {
  liveNotificationReceived,
  notificationsMayHaveBeenMissed,
} from '@/features/notifications/notifications-api'

/** How long the short notice of a new live notification stays. */
export const LIVE_NOTICE_MS = 4000

/**
 * Holds the live connection while a user is signed in: a new token (renewal, another user)
 * closes it and opens one with the new token; sign-out closes it. Answers the latest live
 * notification for a short notice, cleared after LIVE_NOTICE_MS or when dismissed.
 */
export function useLiveNotifications() {
  const dispatch = useAppDispatch()
  const token = useAppSelector(selectAccessToken)
  const userId = useAppSelector(selectCurrentUser)?._id
  const [notice, setNotice] = useState<NotificationView | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  /** The user whose socket connected at least once: a later connect may have missed pushes. */
  const connectedUser = useRef<string | null>(null)

  const dismissNotice = useCallback(() => {
    clearTimeout(timer.current)
    setNotice(null)
  }, [])

  useEffect(() => {
    if (!token || !userId) return
    const close = openLiveConnection({
      token,
      userId,
      onConnect() {
        // docs/notifications.md: pushes during a reconnection window are lost; read the list.
        if (connectedUser.current === userId) dispatch(notificationsMayHaveBeenMissed())
        connectedUser.current = userId
      },
      onNotification(payload) {
        // A repeat of one already shown gets no second notice.
        if (!dispatch(liveNotificationReceived(payload))) return
        clearTimeout(timer.current)
        setNotice(payload.notification)
        timer.current = setTimeout(() => setNotice(null), LIVE_NOTICE_MS)
      },
    })
    return () => {
      close()
      clearTimeout(timer.current)
    }
  }, [dispatch, token, userId])

  return { notice, dismissNotice }
}
