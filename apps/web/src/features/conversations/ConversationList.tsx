import { Link } from 'react-router-dom'
import type { ConversationView } from '@marketplace/contracts/api'
import { useAppSelector } from '@/app/hooks'
import { paths } from '@/config/paths'
import { Avatar } from '@/components/ui/Avatar'
import { CountBadge } from '@/components/ui/CountBadge'
import { relativeTime } from '@/components/ui/relative-time'
import { selectCurrentUser } from '@/lib/auth-slice'
import {
  flattenConversations,
  useGetConversationsInfiniteQuery,
} from '@/features/conversations/conversations-api'

function lastMessageText(conversation: ConversationView, myId: string): string {
  const last = conversation.lastMessage
  if (!last) return 'No messages yet'
  return last.senderId === myId ? `You: ${last.text}` : last.text
}

/**
 * The conversation list: the other person's picture or initials and name, the
 * post's title, the last message and its time, the unread count; newest activity first, 30
 * at a time with "Load more". The live connection keeps the held pages current.
 */
export function ConversationList({ activeId }: { activeId: string | null }) {
  const myId = useAppSelector(selectCurrentUser)?._id ?? ''
  const list = useGetConversationsInfiniteQuery(undefined, { refetchOnMountOrArgChange: true })
  const conversations = flattenConversations(list.data)

  if (list.isLoading) {
    return (
      <p className="page-loading" role="status">
        Loading conversations...
      </p>
    )
  }
  if (list.isError && conversations.length === 0) {
    return (
      <div className="error-state" role="alert">
        <p>Failed to load conversations</p>
        <button type="button" className="btn btn-small" onClick={() => void list.refetch()}>
          Try again
        </button>
      </div>
    )
  }
  if (conversations.length === 0) {
    return (
      <div className="empty-state">
        <p>No conversations yet</p>
        <p className="muted">
          A conversation opens with every request you send or receive, on a post or to a person.
        </p>
      </div>
    )
  }
  return (
    <>
      <ul className="conversation-list" aria-label="Conversations">
        {conversations.map((conversation) => (
          <li key={conversation._id}>
            <Link
              to={paths.messages.thread(conversation._id)}
              className="conversation-row"
              aria-current={conversation._id === activeId ? 'page' : undefined}
            >
              <Avatar
                name={conversation.otherParty.name}
                picture={conversation.otherParty.profilePicture}
              />
              <span className="conversation-text">
                <span className="conversation-top">
                  <span className="conversation-name">{conversation.otherParty.name}</span>
                  <time className="conversation-time" dateTime={conversation.lastActivityAt}>
                    {relativeTime(conversation.lastActivityAt)}
                  </time>
                </span>
                <span className="conversation-post">{conversation.postTitle}</span>
                <span
                  className={
                    conversation.unreadCount > 0
                      ? 'conversation-last conversation-unread'
                      : 'conversation-last'
                  }
                >
                  {lastMessageText(conversation, myId)}
                </span>
              </span>
              <CountBadge count={conversation.unreadCount} />
              {conversation.unreadCount > 0 && (
                <span className="visually-hidden">, {conversation.unreadCount} unread</span>
              )}
            </Link>
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <button
          type="button"
          className="btn btn-small btn-block conversation-more"
          onClick={() => void list.fetchNextPage()}
          disabled={list.isFetchingNextPage}
        >
          {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </button>
      )}
    </>
  )
}
