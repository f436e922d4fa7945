import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import type { MessageView } from '@marketplace/contracts/api'
import { READ_ONLY_MESSAGES } from '@marketplace/contracts/marketplace'
import { useAppSelector } from '@/app/hooks'
import { paths } from '@/config/paths'
import { Avatar } from '@/components/ui/Avatar'
import { errorStatus } from '@/lib/api'
import { selectCurrentUser } from '@/lib/auth-slice'
import { Composer } from '@/features/conversations/Composer'
import {
  flattenMessages,
  useGetConversationQuery,
  useGetMessagesInfiniteQuery,
} from '@/features/conversations/conversations-api'
import { MessageList } from '@/features/conversations/MessageList'
import { ReportMessageModal } from '@/features/conversations/ReportMessageModal'
import { useMarkRead } from '@/features/conversations/use-mark-read'
import { useOutbox } from '@/features/conversations/use-outbox'
import { ArrowLeftIcon } from '@/components/icons/ArrowLeftIcon'
import { BlockUserButton } from '@/features/blocks/BlockUserButton'

/**
 * The newest message from the other party, once the thread has loaded, in words for the
 * live region: a screen reader hears what arrives, not what was already there.
 */
function useArrivalNotice(
  loaded: boolean,
  messages: MessageView[],
  myId: string,
  otherName: string,
) {
  const [notice, setNotice] = useState('')
  const newest = messages.findLast((message) => message.senderId !== myId)
  /** The newest one of theirs already known; undefined until the thread has loaded. */
  const known = useRef<string | null | undefined>(undefined)
  useEffect(() => {
    if (!loaded) return
    const id = newest?._id ?? null
    if (known.current !== undefined && newest && id !== known.current) {
      setNotice(`New message from ${otherName}: ${newest.text}`)
    }
    known.current = id
  }, [loaded, newest, otherName])
  return notice
}

function BackLink() {
  return (
    <Link to={paths.messages.list} className="btn btn-ghost thread-back">
      <ArrowLeftIcon size={16} />
      Back to conversations
    </Link>
  )
}

/** One conversation: its header, the read-only banner, the messages, the input. */
export function Thread({ conversationId }: { conversationId: string }) {
  const myId = useAppSelector(selectCurrentUser)?._id ?? ''
  const conversation = useGetConversationQuery(conversationId, { refetchOnMountOrArgChange: true })
  const history = useGetMessagesInfiniteQuery(conversationId, { refetchOnMountOrArgChange: true })
  const { outgoing, submit, retry, discard } = useOutbox(conversationId)
  const [reporting, setReporting] = useState<MessageView | null>(null)
  const view = conversation.data
  const messages = flattenMessages(history.data)
  const otherName = view?.otherParty.name ?? ''
  const notice = useArrivalNotice(Boolean(history.data), messages, myId, otherName)
  useMarkRead(conversationId, view?.unreadCount)

  if (conversation.isLoading || (history.isLoading && !history.data)) {
    return (
      <section className="thread" aria-label="Conversation">
        <BackLink />
        <p className="page-loading" role="status">
          Loading conversation...
        </p>
      </section>
    )
  }
  if (!view || (history.isError && !history.data)) {
    const missing = errorStatus(conversation.error ?? history.error) === 404
    return (
      <section className="thread" aria-label="Conversation">
        <BackLink />
        <div className="thread-state error-state" role="alert">
          <p>{missing ? 'Conversation not found' : 'Failed to load the conversation'}</p>
          {!missing && (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => {
                void conversation.refetch()
                void history.refetch()
              }}
            >
              Try again
            </button>
          )}
        </div>
      </section>
    )
  }

  const readOnlyText = view.readOnly
    ? (view.readOnlyMessage ?? READ_ONLY_MESSAGES[view.readOnly])
    : null

  return (
    <section className="thread" aria-labelledby="thread-title">
      <header className="thread-header">
        <BackLink />
        <Avatar name={view.otherParty.name} picture={view.otherParty.profilePicture} />
        <div className="thread-title">
          <h2 id="thread-title">{view.otherParty.name}</h2>
          <p className="muted">{view.postTitle}</p>
        </div>
        {/* Once blocked (either way) or gone, there is nobody left to block here. */}
        {view.readOnly !== 'unavailable' && view.readOnly !== 'account-deleted' && (
          <BlockUserButton userId={view.otherParty.userId} name={view.otherParty.name} />
        )}
      </header>
      {readOnlyText && (
        <p className="thread-read-only" role="note">
          {readOnlyText}
        </p>
      )}
      <MessageList
        messages={messages}
        outgoing={outgoing}
        myId={myId}
        otherName={otherName}
        hasOlder={Boolean(history.hasNextPage)}
        loadingOlder={history.isFetchingNextPage}
        onLoadOlder={() => void history.fetchNextPage()}
        onReport={setReporting}
        onRetry={retry}
        onDiscard={(message) => discard(message.clientId)}
      />
      <Composer disabled={readOnlyText !== null} onSend={submit} />
      <div className="visually-hidden" role="status" aria-live="polite">
        {notice}
      </div>
      {reporting && (
        <ReportMessageModal
          conversationId={conversationId}
          message={reporting}
          senderName={otherName}
          onClose={() => setReporting(null)}
        />
      )}
    </section>
  )
}
