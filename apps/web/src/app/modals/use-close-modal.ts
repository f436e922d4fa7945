import { useCallback } from 'react'
import { useAppDispatch } from '@/app/hooks'
import { modalClosed } from '@/app/ui-slice'

/**
 * A stable "close the modal" callback. <Modal> re-runs its focus effect whenever onClose
 * changes, so a new function each render would pull the focus out of the field being typed in.
 */
export function useCloseModal() {
  const dispatch = useAppDispatch()
  return useCallback(() => dispatch(modalClosed()), [dispatch])
}
