import { useMatch, useOutlet } from 'react-router-dom'
import { paths } from '@/config/paths'
import { ConversationList } from '@/features/conversations/ConversationList'
import './conversations.css'

/**
 * /messages: the list and, beside it, the open thread (a child route). At
 * 768 px or less one at a time: the list, or the thread full screen with its back link.
 */
export default function MessagesPage() {
  const thread = useOutlet()
  const activeId = useMatch(paths.messages.threadPattern)?.params.conversationId ?? null
  return (
    <div className={thread ? 'messages messages-with-thread' : 'messages'}>
      <section className="messages-list-pane" aria-labelledby="messages-title">
        <h1 id="messages-title">Messages</h1>
        <ConversationList activeId={activeId} />
      </section>
      <div className="messages-thread-pane">
        {thread ?? <p className="messages-placeholder muted">Choose a conversation to read it.</p>}
      </div>
    </div>
  )
}
