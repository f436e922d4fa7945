import { useEffect } from 'react'
import { useAppDispatch, useAppSelector } from '@/app/hooks'
import { CategorySidebar } from '@/features/feed/CategorySidebar'
import { FeedSkeleton } from '@/features/feed/FeedSkeleton'
import { FEED_TEXTS } from '@/features/feed/feed-texts'
import {
  useGetJobsFeedQuery,
  useGetPeopleFeedQuery,
  feedQueryOf,
  type FeedQuery,
} from '@/features/feed/feed-api'
import { feedActions, selectFeed, type FeedState } from '@/features/feed/feed-slice'
import { Pagination } from '@/components/ui/Pagination'
import { PersonCard } from '@/features/feed/PersonCard'
import { PostCard } from '@/features/feed/PostCard'
import { useGetPersonQuery, useGetPostQuery } from '@/lib/entities-api'
import { ArrowLeftIcon } from '@/components/icons/ArrowLeftIcon'
import { unknownPlaceMessage } from '@/features/feed/distance'
import { SaveSearchButton } from '@/features/saved-searches/SaveSearchButton'
import { feedSearchQuery, suggestedSearchName } from '@/features/feed/feed-search-query'
import { useFeedUrlState } from '@/features/feed/use-feed-url-state'
import './feed.css'

/**
 * The home feed (route /): posts or people, with categories, filters and pages; its state is
 * also the page's URL (`/?feed=job&category=Moving&near=Austin%2C+TX&within=25`).
 */
export default function HomePage() {
  const dispatch = useAppDispatch()
  const urlRead = useFeedUrlState()
  const feed = useAppSelector(selectFeed)
  const { feedType, selected, view } = feed
  const texts = FEED_TEXTS[feedType]

  // Until the URL's feed is in the slice, nothing is asked: that would be the feed it leaves.
  const query: FeedQuery = feedQueryOf(feed)
  const jobs = useGetJobsFeedQuery(query, { skip: !urlRead || feedType !== 'job' })
  const people = useGetPeopleFeedQuery(query, { skip: !urlRead || feedType !== 'worker' })
  const current = feedType === 'job' ? jobs : people
  const pagination = current.data?.pagination
  const total = pagination?.total

  useEffect(() => {
    if (typeof total === 'number') dispatch(feedActions.totalChanged(total))
  }, [dispatch, total])

  // A page past the end (posts removed meanwhile) falls back to the last page.
  const totalPages = pagination?.totalPages
  useEffect(() => {
    if (typeof totalPages === 'number' && totalPages >= 1 && feed.page > totalPages) {
      dispatch(feedActions.pageSelected(totalPages))
    }
  }, [dispatch, totalPages, feed.page])

  const listClass = view === 'list' ? 'list feed-items-list' : 'grid feed-items-grid'

  let content
  if (selected) {
    content = (
      <>
        <div className="feed-selected-bar">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => dispatch(feedActions.itemSelected(null))}
          >
            <ArrowLeftIcon size={16} />
            {FEED_TEXTS[selected.type].back}
          </button>
        </div>
        <SelectedItem selected={selected} layout={view} className={listClass} />
      </>
    )
  } else if (!urlRead || current.isLoading || (current.isFetching && current.isError)) {
    content = <FeedSkeleton layout={view} status={texts.loading} />
  } else if (current.isError) {
    content = (
      <div className="error-state" role="alert">
        <p>{unknownPlaceMessage(current.error) ?? texts.error}</p>
        <button type="button" className="btn btn-small" onClick={() => void current.refetch()}>
          Try again
        </button>
      </div>
    )
  } else {
    const items =
      feedType === 'job'
        ? (jobs.data?.jobs ?? []).map((post) => (
            <PostCard key={post._id} post={post} layout={view} />
          ))
        : (people.data?.people ?? []).map((person) => (
            <PersonCard key={person._id} person={person} layout={view} />
          ))
    content =
      items.length === 0 ? (
        <p className="empty-state">{texts.empty}</p>
      ) : (
        <>
          <div
            className={`${listClass}${current.isFetching ? ' feed-refreshing' : ''}`}
            aria-busy={current.isFetching}
          >
            {items}
          </div>
          <Pagination
            page={pagination?.page ?? feed.page}
            totalPages={pagination?.totalPages ?? 1}
            onPageChange={(page) => dispatch(feedActions.pageSelected(page))}
          />
        </>
      )
  }

  return (
    <div className="page feed-page">
      <div className="feed-type-toggle" role="group" aria-label="Feed type">
        {(['job', 'worker'] as const).map((type) => (
          <button
            key={type}
            type="button"
            className={`btn${feedType === type ? ' btn-primary' : ''}`}
            aria-pressed={feedType === type}
            onClick={() => {
              if (feedType !== type || selected) dispatch(feedActions.feedTypeSelected(type))
            }}
          >
            {FEED_TEXTS[type].toggle}
          </button>
        ))}
      </div>
      <SaveSearchButton query={feedSearchQuery(feed)} suggestedName={suggestedSearchName(feed)} />
      <div className="feed-layout">
        <CategorySidebar />
        <section className="feed-content" aria-label={feedType === 'job' ? 'Posts' : 'People'}>
          {feed.search && !selected && (
            <p className="feed-search-words">
              {texts.matching} “{feed.search}”
              <button
                type="button"
                className="btn btn-small btn-ghost"
                onClick={() => dispatch(feedActions.searchCleared())}
              >
                Clear
              </button>
            </p>
          )}
          {content}
        </section>
      </div>
    </div>
  )
}

/** The one item chosen, read from RTK Query, where choosing it put it. */
function SelectedItem({
  selected,
  layout,
  className,
}: {
  selected: NonNullable<FeedState['selected']>
  layout: FeedState['view']
  className: string
}) {
  const post = useGetPostQuery(selected.id, { skip: selected.type !== 'job' })
  const person = useGetPersonQuery(selected.id, { skip: selected.type !== 'worker' })
  const current = selected.type === 'job' ? post : person
  if (!current.data) {
    return current.isError ? (
      <p className="error-state" role="alert">
        {FEED_TEXTS[selected.type].error}
      </p>
    ) : (
      <p className="page-loading" role="status">
        {FEED_TEXTS[selected.type].loading}
      </p>
    )
  }
  return (
    <div className={className}>
      {selected.type === 'job' && post.data && <PostCard post={post.data} layout={layout} />}
      {selected.type === 'worker' && person.data && (
        <PersonCard person={person.data} layout={layout} />
      )}
    </div>
  )
}
