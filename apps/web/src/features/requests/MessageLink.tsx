import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'

/**
 * "Message" on a request: opens the request's conversation with the other side,
 * /messages/request/<requestId>, which finds it and shows its thread.
 */
export function MessageLink({ requestId }: { requestId: string }) {
  return (
    <Link className="btn btn-small" to={paths.messages.byRequest(requestId)}>
      Message
    </Link>
  )
}
