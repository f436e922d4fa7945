import { useCallback, useEffect, useRef, useState } from 'react'
import { useStore } from 'react-redux'
import type { NotificationView } from '@marketplace/contracts/api'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { selectAccessToken, selectCurrentUser } from '@/lib/auth-slice'
import { renewSession } from '@/lib/base-query'
import { api } from '@/lib/api'
import { openLiveConnection, type LiveConnection } from '@/features/notifications/live-connection'
import {
  liveNotificationReceived,
  notificationsMayHaveBeenMissed,
} from '@/features/notifications/notifications-api'
import type { ConversationPushes } from '@/features/conversations/conversations-live'

/**
 * The kinds that tell of a step of a request (sent, decided, an offer countered or answered):
 * the request lists on screen are read again, so the other side's step shows without a reload.
 */
const REQUEST_NOTICE_KINDS: ReadonlySet<NotificationView['kind']> = new Set([
  'post-request',
  'request-status',
])

/** How long the short notice of a new live notification stays. */
export const LIVE_NOTICE_MS = 4000

/**
 * Holds the live connection while a user is signed in: a renewed token is handed to the open
 * socket (it re-authenticates, no pushes are missed), another user or sign-out closes it.
 * Asked by the server before the token expires, it renews the session, so an idle tab keeps
 * its live updates. Answers the latest live notification for a short notice, cleared after
 * LIVE_NOTICE_MS or when dismissed. The same connection carries the conversations' pushes: their handlers load with
 * socket.io-client, on demand, and also keep the unread messages total the shell shows.
 */
export function useLiveNotifications({ enabled = true }: { enabled?: boolean } = {}) {
  const dispatch = useAppDispatch()
  const token = useAppSelector(selectAccessToken)
  const userId = useAppSelector(selectCurrentUser)?._id
  const [notice, setNotice] = useState<NotificationView | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  /** The user whose socket connected at least once: a later connect may have missed pushes. */
  const connectedUser = useRef<string | null>(null)
  const connection = useRef<LiveConnection | null>(null)
  const store = useStore()
  /** The token of the moment, read when a connection opens (renewals reach it by renewToken). */
  const latestToken = useRef(token)
  latestToken.current = token
  // Not before the caller says so (the bell: after the first paint).
  const signedIn = !!token && enabled

  const dismissNotice = useCallback(() => {
    clearTimeout(timer.current)
    setNotice(null)
  }, [])

  useEffect(() => {
    const openingToken = latestToken.current
    if (!signedIn || !openingToken || !userId) return
    let conversations: ConversationPushes | null = null
    let closed = false
    import('@/features/conversations/conversations-live')
      .then(({ followConversations }) => {
        if (!closed) conversations = followConversations(dispatch, userId)
      })
      .catch((error: unknown) => console.error('Live conversations could not load:', error))
    const close = openLiveConnection({
      token: openingToken,
      userId,
      onTokenExpiring() {
        // Renewed or not, the socket's fate follows: a new token reaches it below; a refused
        // renewal signs out at the next request. Without "Keep me signed in" renewSession
        // skips (no silent renewal): the session ends with its token (lib/session-expiry.ts).
        void renewSession({ dispatch, getState: store.getState })
      },
      onConnect() {
        // docs/notifications.md: pushes during a reconnection window are lost; read the list.
        if (connectedUser.current === userId) {
          dispatch(notificationsMayHaveBeenMissed())
          conversations?.reconnected()
        }
        connectedUser.current = userId
      },
      onMessage: (payload) => conversations?.message(payload),
      onConversationRead: (payload) => conversations?.conversationRead(payload),
      onMessageTakenDown: (payload) => conversations?.messageTakenDown(payload),
      onNotification(payload) {
        // A repeat of one already shown gets no second notice.
        if (!dispatch(liveNotificationReceived(payload))) return
        if (REQUEST_NOTICE_KINDS.has(payload.notification.kind)) {
          dispatch(api.util.invalidateTags(['PostRequests', 'PeopleRequests']))
        }
        clearTimeout(timer.current)
        setNotice(payload.notification)
        timer.current = setTimeout(() => setNotice(null), LIVE_NOTICE_MS)
      },
    })
    connection.current = close
    return () => {
      closed = true
      connection.current = null
      close()
      conversations?.stop()
      clearTimeout(timer.current)
    }
  }, [dispatch, signedIn, store, userId])

  useEffect(() => {
    if (token) connection.current?.renewToken(token)
  }, [token])

  return { notice, dismissNotice }
}
