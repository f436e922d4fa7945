import { useEffect, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { paths } from '@/config/paths'
import { errorStatus } from '@/lib/api'
import { useGetConversationByRequestQuery } from '@/features/conversations/conversations-api'

/**
 * The conversation opens from the request's event, a moment after the request itself: a
 * "Message" link followed at once may find none yet, so a 404 is asked again, once a second
 * for up to 20 s ("Opening the conversation..." meanwhile), before the page says there is
 * none. Usually the event is there within a second; a busy broker or a service that just
 * started (its consumer group still joining) can take several.
 */
export const NOT_YET_OPENED_RETRIES = { attempts: 20, delayMs: 1000 }

/**
 * /messages/request/:requestId: finds the request's conversation and shows its
 * thread in place of this address, so Back does not come here again.
 */
export default function RequestThreadPage({
  retries = NOT_YET_OPENED_RETRIES,
}: {
  retries?: { attempts: number; delayMs: number }
}) {
  const { requestId = '' } = useParams()
  const navigate = useNavigate()
  const lookup = useGetConversationByRequestQuery(requestId)
  const [attempt, setAttempt] = useState(0)
  const missing = errorStatus(lookup.error) === 404
  const { refetch } = lookup

  useEffect(() => {
    if (lookup.data) navigate(paths.messages.thread(lookup.data._id), { replace: true })
  }, [lookup.data, navigate])

  useEffect(() => {
    if (!missing || lookup.isFetching || attempt >= retries.attempts) return
    const timer = setTimeout(() => {
      setAttempt((count) => count + 1)
      void refetch()
    }, retries.delayMs)
    return () => clearTimeout(timer)
  }, [attempt, lookup.isFetching, missing, refetch, retries])

  if (missing && attempt >= retries.attempts && !lookup.isFetching) {
    return (
      <section className="thread thread-state" aria-labelledby="no-conversation-title">
        <h2 id="no-conversation-title">No conversation for this request</h2>
        <p className="muted">
          It may have been deleted, or it is not one of yours. Your conversations are all in
          Messages.
        </p>
        <Link to={paths.messages.list} className="btn">
          Back to conversations
        </Link>
      </section>
    )
  }
  if (lookup.isError && !missing) {
    return (
      <section className="thread thread-state" aria-label="Conversation">
        <div className="error-state" role="alert">
          <p>Failed to load the conversation</p>
          <button type="button" className="btn btn-small" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      </section>
    )
  }
  return (
    <p className="page-loading" role="status">
      Opening the conversation...
    </p>
  )
}
