import { useCallback, useEffect, useRef, useState } from 'react'
import { useMarkConversationReadMutation } from '@/features/conversations/conversations-api'

const pageVisible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden'

/**
 * Marks the open thread read (POST .../read) whenever it holds unread messages and the page
 * is visible: on opening, when a message arrives while it is on screen, and when the tab
 * comes back. One read at a time; a message that arrives during one gets one more after it,
 * so a burst of messages costs two reads, not one per message.
 */
export function useMarkRead(conversationId: string, unreadCount: number | undefined) {
  const [markRead] = useMarkConversationReadMutation()
  const [visible, setVisible] = useState(pageVisible)
  const inFlight = useRef(false)
  const again = useRef(false)

  useEffect(() => {
    const onChange = () => setVisible(pageVisible())
    document.addEventListener('visibilitychange', onChange)
    return () => document.removeEventListener('visibilitychange', onChange)
  }, [])

  const read = useCallback(() => {
    if (inFlight.current) {
      again.current = true
      return
    }
    inFlight.current = true
    void markRead(conversationId)
      .unwrap()
      .catch(() => {
        // Tried again at the next message or visit; the badge keeps the server's count.
      })
      .finally(() => {
        inFlight.current = false
        if (again.current) {
          again.current = false
          read()
        }
      })
  }, [conversationId, markRead])

  useEffect(() => {
    if (visible && unreadCount !== undefined && unreadCount > 0) read()
  }, [read, unreadCount, visible])
}
