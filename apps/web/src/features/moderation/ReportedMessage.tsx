import type { ReportedMessageView } from '@marketplace/contracts/api'

function sentTime(sentAt: string): string {
  return new Date(sentAt).toLocaleString([], {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
}

/**
 * A reported message in the queue: the conversation around it as a small
 * thread, oldest first, the reported message highlighted and named as such, so a moderator
 * judges it in its context without opening the conversation.
 */
export function ReportedMessage({ message }: { message: ReportedMessageView }) {
  return (
    <div className="moderation-target moderation-message">
      <div>
        <p className="moderation-target-kind">Message</p>
        <p>
          From <strong>{message.sender.name}</strong>
        </p>
        <ol className="moderation-excerpt" aria-label="Conversation around the reported message">
          {message.excerpt.map((entry) => (
            <li
              key={entry._id}
              className={
                entry.reported
                  ? 'moderation-excerpt-message moderation-excerpt-reported'
                  : 'moderation-excerpt-message'
              }
              aria-current={entry.reported ? 'true' : undefined}
            >
              <p className="moderation-excerpt-meta">
                <span className="moderation-excerpt-sender">{entry.senderName}</span>{' '}
                <time dateTime={entry.sentAt} className="muted">
                  {sentTime(entry.sentAt)}
                </time>
                {entry.reported && <span className="badge badge-danger">Reported message</span>}
              </p>
              <p className="moderation-excerpt-text">{entry.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </div>
  )
}
