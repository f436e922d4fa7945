import { useId } from 'react'
import {
  ALL_FILTER,
  CONTACT_OPTIONS,
  PAYMENT_OPTIONS,
  SORT_ORDERS,
} from '@marketplace/contracts/marketplace'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { useIsMobile } from '@/hooks/use-is-mobile'
import { totalLine } from '@/features/feed/CategorySidebar'
import { feedActions, selectFeed, type FeedState } from '@/features/feed/feed-slice'
import { LocationFilter } from '@/features/feed/LocationFilter'
import { DistanceFilter } from '@/features/feed/DistanceFilter'
import './feed.css'

/**
 * The feed's toolbar on /: view toggle, sort, location, payment and contact filters and
 * Reset Filters; on mobile (<= 768 px) a compact bar that also shows the total.
 */
export default function FeedToolbar() {
  const dispatch = useAppDispatch()
  const feed = useAppSelector(selectFeed)
  const mobile = useIsMobile()
  const sortId = useId()
  const paymentId = useId()
  const contactId = useId()
  const small = mobile ? ' btn-small' : ''

  const setFilter = (filter: 'location' | 'payment' | 'contact', value: string) =>
    dispatch(feedActions.filterSelected({ filter, value }))

  return (
    <div
      className={`toolbar feed-toolbar${mobile ? ' feed-toolbar-compact' : ''}`}
      role="toolbar"
      aria-label="Feed filters"
    >
      {mobile && (
        <span className="feed-toolbar-total" aria-live="polite">
          {totalLine(feed.total, feed.feedType)}
        </span>
      )}
      <div className="feed-toolbar-group" role="group" aria-label="View">
        {(['list', 'grid'] as const satisfies ReadonlyArray<FeedState['view']>).map((view) => (
          <button
            key={view}
            type="button"
            className={`btn${small}${feed.view === view ? ' btn-primary' : ''}`}
            aria-pressed={feed.view === view}
            onClick={() => dispatch(feedActions.viewSelected(view))}
          >
            {view === 'list' ? 'List' : 'Grid'}
          </button>
        ))}
      </div>
      <div className="feed-toolbar-group">
        <label htmlFor={sortId} className={mobile ? 'visually-hidden' : undefined}>
          Sort
        </label>
        <select
          id={sortId}
          value={feed.sort}
          onChange={(event) =>
            dispatch(feedActions.sortSelected(event.target.value as FeedState['sort']))
          }
        >
          <option value={SORT_ORDERS.recent}>Recent</option>
          <option value={SORT_ORDERS.oldest}>Oldest</option>
          {feed.near && <option value="distance">Nearest</option>}
        </select>
      </div>
      <DistanceFilter compact={mobile} />
      <LocationFilter
        value={feed.location}
        onChange={(location) => setFilter('location', location)}
        compact={mobile}
      />
      <div className="feed-toolbar-group">
        <label htmlFor={paymentId} className={mobile ? 'visually-hidden' : undefined}>
          Payment
        </label>
        <select
          id={paymentId}
          value={feed.payment}
          onChange={(event) => setFilter('payment', event.target.value)}
        >
          <option value={ALL_FILTER}>{mobile ? 'Payment: All' : 'All'}</option>
          {PAYMENT_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      <div className="feed-toolbar-group">
        <label htmlFor={contactId} className={mobile ? 'visually-hidden' : undefined}>
          Contact
        </label>
        <select
          id={contactId}
          value={feed.contact}
          onChange={(event) => setFilter('contact', event.target.value)}
        >
          <option value={ALL_FILTER}>{mobile ? 'Contact: All' : 'All'}</option>
          {CONTACT_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        className={`btn btn-ghost${small}`}
        onClick={() => dispatch(feedActions.filtersReset())}
      >
        Reset Filters
      </button>
    </div>
  )
}
