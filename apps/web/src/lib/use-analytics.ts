import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router-dom'
import type { AnalyticsEventName } from '@marketplace/contracts/marketplace'
import { track } from '@/lib/analytics'

// StrictMode runs an effect twice for one mount; a ref survives that, so each event is sent once.

/** One page_view per navigation, with the route's pathname. */
export function usePageViews(): void {
  const { key, pathname } = useLocation()
  const viewed = useRef<string | null>(null)
  useEffect(() => {
    if (viewed.current === key) return
    viewed.current = key
    track('page_view', undefined, pathname)
  }, [key, pathname])
}

/** One event when a page is shown (e.g. help_viewed). */
export function useTrackOnMount(name: AnalyticsEventName): void {
  const sent = useRef(false)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    track(name)
  }, [name])
}
