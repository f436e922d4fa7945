import { useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { feedActions, selectFeed } from '@/features/feed/feed-slice'
import { feedUrlQuery, feedUrlStateOf, isNewFeed } from '@/features/feed/feed-url-state'

/**
 * Keeps the home page's URL and the feed slice (where the state lives) in step, so a saved
 * search's link (`/?feed=job&near=Austin%2C+TX&within=25`), a reload, a shared address and
 * Back all show the same feed:
 *
 * - A URL the page did not write itself (the first load, a link, Back and Forward) is read
 *   into the slice. A bare `/` opened from another page keeps the slice's feed instead (the
 *   search box and the Home link come back to the feed as it was) and writes it to the URL.
 * - A change of the slice is written to the URL: a new entry for a feed type or category,
 *   the same entry for the rest (filters, place, sort, page), so Back leaves the feed rather
 *   than replaying every filter.
 *
 * Returns false while the URL's feed is not in the slice yet: the page asks for nothing
 * then, rather than for the feed it is about to leave.
 */
export function useFeedUrlState(): boolean {
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const location = useLocation()
  const feed = useAppSelector(selectFeed)

  const fromUrl = useMemo(() => feedUrlStateOf(location.search), [location.search])
  const urlQuery = feedUrlQuery(fromUrl)
  const stateQuery = feedUrlQuery(feed)
  // The location (by its key) last compared, and the query this hook last wrote: a location
  // not seen before that holds another query was not written here, so it leads.
  const seenKey = useRef<string | null>(null)
  const written = useRef<string | null>(null)
  // Whether the URL has shown the slice's feed yet: the first write of a page opened at a bare
  // `/` replaces that entry, so Back leaves the page rather than landing on the default feed.
  const shown = useRef(false)
  const firstLocation = seenKey.current === null
  const urlLeads =
    location.key !== seenKey.current &&
    urlQuery !== stateQuery &&
    urlQuery !== written.current &&
    !(firstLocation && urlQuery === '')

  // Before the browser paints and before the feed's query starts (passive effects).
  useLayoutEffect(() => {
    seenKey.current = location.key
    if (urlLeads) {
      written.current = null
      dispatch(feedActions.urlStateRead({ feed: fromUrl, named: urlQuery !== '' }))
    }
  }, [dispatch, location.key, urlLeads, fromUrl, urlQuery])

  useEffect(() => {
    if (urlLeads) return
    if (stateQuery === urlQuery) {
      shown.current = true
      return
    }
    if (stateQuery === written.current) return // on its way
    const replace = !shown.current || !isNewFeed(fromUrl, feed)
    shown.current = true
    written.current = stateQuery
    void navigate(
      { pathname: location.pathname, search: stateQuery ? `?${stateQuery}` : '' },
      { replace, preventScrollReset: true },
    )
  }, [urlLeads, stateQuery, urlQuery, navigate, location.pathname, fromUrl, feed])

  return !urlLeads
}
