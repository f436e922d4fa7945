import { useParams } from 'react-router-dom'
import { Thread } from '@/features/conversations/Thread'

/** /messages/:conversationId: the thread, its state reset when another one opens. */
export default function ThreadPage() {
  const { conversationId = '' } = useParams()
  return <Thread key={conversationId} conversationId={conversationId} />
}
