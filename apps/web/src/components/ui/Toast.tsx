import { useEffect } from 'react'
import { CloseIcon } from '@/components/icons/CloseIcon'
import './toast.css'

export interface ToastMessage {
  id: number
  text: string
  tone: 'success' | 'error'
}

/** How long a toast stays on screen. */
export const TOAST_MS = 3500

/** A short note in a corner that goes away by itself. */
export function Toast({ toast, onDone }: { toast: ToastMessage | null; onDone: () => void }) {
  useEffect(() => {
    if (!toast) return
    const timer = setTimeout(onDone, TOAST_MS)
    return () => clearTimeout(timer)
  }, [toast, onDone])

  if (!toast) return null
  return (
    <div className={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
      <span>{toast.text}</span>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={onDone}>
        <CloseIcon size={16} />
      </button>
    </div>
  )
}
