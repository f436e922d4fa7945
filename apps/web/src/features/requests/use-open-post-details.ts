import { useState } from 'react'
import { useAppDispatch } from '@/app/hooks'
import { modalOpened } from '@/app/ui-slice'
import { useLazyGetPostQuery } from '@/lib/entities-api'

/**
 * Loads a post by id and opens the shared post details modal with it. A request only
 * carries the post's id and title, so the details need a read.
 */
export function useOpenPostDetails(failureMessage: string | null = null) {
  const dispatch = useAppDispatch()
  const [loadPost] = useLazyGetPostQuery()
  const [loadingId, setLoadingId] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const open = async (postId: string) => {
    setError(null)
    setLoadingId(postId)
    try {
      const post = await loadPost(postId, true).unwrap()
      dispatch(modalOpened({ kind: 'postDetails', post }))
    } catch {
      setError(failureMessage)
    } finally {
      setLoadingId(null)
    }
  }

  return { open, loadingId, error, clearError: () => setError(null) }
}
