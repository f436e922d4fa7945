import { Fragment, useLayoutEffect, useRef, type ReactNode } from 'react'
import type { MessageView } from '@marketplace/contracts/api'
import { TAKEN_DOWN_MESSAGE_TEXT } from '@marketplace/contracts/marketplace'
import type { OutgoingMessage } from '@/features/conversations/use-outbox'
import { dayKey, dayLabel, timeOfDay } from '@/features/conversations/thread-time'

/** Within this many pixels of the top, older messages load; of the bottom, new ones scroll in. */
const EDGE_PX = 80

/** Shown for a message whose sender's account was purged (its text is gone). */
export const PURGED_MESSAGE_TEXT = 'This message was deleted with its account'

type Row =
  | { kind: 'stored'; message: MessageView; sentAt: string }
  | { kind: 'outgoing'; message: OutgoingMessage; sentAt: string }

/**
 * The thread's messages, oldest at the top: day separators, my bubbles right
 * and theirs left, "Seen" under my last message the other side read, my unsent ones with
 * their state and a retry, "Report" on theirs. Scrolling near the top loads older messages
 * (also a button, for keyboards), keeping what is on screen in place; a new message scrolls
 * into view when the reader was at the bottom or sent it.
 */
export function MessageList({
  messages,
  outgoing,
  myId,
  otherName,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  onReport,
  onRetry,
  onDiscard,
}: {
  messages: MessageView[]
  outgoing: OutgoingMessage[]
  myId: string
  otherName: string
  hasOlder: boolean
  loadingOlder: boolean
  onLoadOlder: () => void
  onReport: (message: MessageView) => void
  onRetry: (message: OutgoingMessage) => void
  onDiscard: (message: OutgoingMessage) => void
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const fromBottom = useRef(0)
  const oldestId = messages[0]?._id
  const newestKey = outgoing.at(-1)?.clientId ?? messages.at(-1)?._id
  const newestIsMine = outgoing.length > 0 || messages.at(-1)?.senderId === myId

  // Older messages were put above: keep the same distance from the bottom, so nothing jumps.
  useLayoutEffect(() => {
    const box = scroller.current
    if (box && !atBottom.current) box.scrollTop = box.scrollHeight - fromBottom.current
  }, [oldestId])

  useLayoutEffect(() => {
    const box = scroller.current
    if (box && (atBottom.current || newestIsMine)) box.scrollTop = box.scrollHeight
  }, [newestKey, newestIsMine])

  const onScroll = () => {
    const box = scroller.current
    if (!box) return
    fromBottom.current = box.scrollHeight - box.scrollTop
    atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < EDGE_PX
    if (box.scrollTop < EDGE_PX && hasOlder && !loadingOlder) onLoadOlder()
  }

  const lastSeenId = [...messages]
    .reverse()
    .find((message) => message.senderId === myId && message.seen)?._id
  const pendingIds = new Set(messages.map((message) => message.clientId).filter(Boolean))
  const rows: Row[] = [
    ...messages.map((message) => ({ kind: 'stored' as const, message, sentAt: message.sentAt })),
    ...outgoing
      .filter((message) => !pendingIds.has(message.clientId))
      .map((message) => ({ kind: 'outgoing' as const, message, sentAt: message.createdAt })),
  ]

  const items: ReactNode[] = []
  let day: string | null = null
  for (const row of rows) {
    const key = dayKey(row.sentAt)
    if (key !== day) {
      day = key
      items.push(
        <li key={`day-${key}`} className="thread-day">
          <span>{dayLabel(row.sentAt)}</span>
        </li>,
      )
    }
    items.push(
      row.kind === 'stored' ? (
        <StoredBubble
          key={row.message._id}
          message={row.message}
          mine={row.message.senderId === myId}
          senderName={row.message.senderId === myId ? 'You' : otherName}
          seen={row.message._id === lastSeenId}
          onReport={onReport}
        />
      ) : (
        <OutgoingBubble
          key={row.message.clientId}
          message={row.message}
          onRetry={onRetry}
          onDiscard={onDiscard}
        />
      ),
    )
  }

  return (
    <div className="thread-scroll" ref={scroller} onScroll={onScroll}>
      {hasOlder && (
        <div className="thread-older">
          <button
            type="button"
            className="btn btn-small"
            onClick={onLoadOlder}
            disabled={loadingOlder}
          >
            {loadingOlder ? 'Loading older messages...' : 'Load older messages'}
          </button>
        </div>
      )}
      {rows.length === 0 ? (
        <p className="thread-empty muted">No messages yet. Say hello!</p>
      ) : (
        <ol className="thread-messages" aria-label="Messages">
          {items}
        </ol>
      )}
    </div>
  )
}

function StoredBubble({
  message,
  mine,
  senderName,
  seen,
  onReport,
}: {
  message: MessageView
  mine: boolean
  senderName: string
  seen: boolean
  onReport: (message: MessageView) => void
}) {
  const textId = `message-${message._id}`
  // A line of the marketplace about the request's offer: no one's bubble, no Report.
  if (message.system) {
    return (
      <li className="thread-system">
        <p className="thread-system-text">{message.text}</p>
        <time className="bubble-time" dateTime={message.sentAt}>
          {timeOfDay(message.sentAt)}
        </time>
      </li>
    )
  }
  const removed = message.takenDown || message.text === ''
  const text = message.takenDown
    ? TAKEN_DOWN_MESSAGE_TEXT
    : message.text === ''
      ? PURGED_MESSAGE_TEXT
      : message.text
  return (
    <li className={mine ? 'bubble-row bubble-mine' : 'bubble-row bubble-theirs'}>
      <div className={removed ? 'bubble bubble-removed' : 'bubble'}>
        <span className="visually-hidden">{senderName}: </span>
        <p className="bubble-text" id={textId}>
          {text}
        </p>
        <time className="bubble-time" dateTime={message.sentAt}>
          {timeOfDay(message.sentAt)}
        </time>
      </div>
      {!mine && !removed && (
        <button
          type="button"
          className="link-btn bubble-action"
          aria-describedby={textId}
          onClick={() => onReport(message)}
        >
          Report
        </button>
      )}
      {seen && <p className="bubble-status">Seen</p>}
    </li>
  )
}

function OutgoingBubble({
  message,
  onRetry,
  onDiscard,
}: {
  message: OutgoingMessage
  onRetry: (message: OutgoingMessage) => void
  onDiscard: (message: OutgoingMessage) => void
}) {
  const failed = message.state === 'failed'
  return (
    <li
      className={failed ? 'bubble-row bubble-mine bubble-failed' : 'bubble-row bubble-mine'}
      aria-busy={!failed}
    >
      <div className="bubble bubble-pending">
        <span className="visually-hidden">You: </span>
        <p className="bubble-text">{message.text}</p>
      </div>
      {failed ? (
        <Fragment>
          <p className="bubble-error" role="alert">
            Not sent. {message.error}
          </p>
          <div className="bubble-actions">
            <button
              type="button"
              className="link-btn bubble-action"
              onClick={() => onRetry(message)}
            >
              Retry
            </button>
            <button
              type="button"
              className="link-btn bubble-action"
              onClick={() => onDiscard(message)}
            >
              Discard
            </button>
          </div>
        </Fragment>
      ) : (
        <p className="bubble-status">Sending...</p>
      )}
    </li>
  )
}
