import type { JobsFeedAnswer } from '@marketplace/contracts/api'
import { FEED_PAGE_SIZE } from '@marketplace/contracts/marketplace'
import type { AppStore } from '@/app/store'
import { feedApi, feedQueryOf } from '@/features/feed/feed-api'
import { initialFeedState } from '@/features/feed/feed-slice'

/**
 * That answer as the home feed's first query (the slice's initial filters, page 1, newest
 * first), so the page's first render shows the same posts the HTML did, without asking again.
 * One plain action (upsertQueryEntries): `upsertQueryData` runs a request's whole life
 * (a thunk, its pending and fulfilled actions, a deep copy of the answer against the old
 * one), which was one long task at the start (about 16 ms of CPU here, four times that on a
 * phone) for an answer that is already here.
 */
export function seedFirstFeedPage(store: AppStore, answer: JobsFeedAnswer): void {
  store.dispatch(
    feedApi.util.upsertQueryEntries([
      {
        endpointName: 'getJobsFeed',
        arg: feedQueryOf(initialFeedState),
        value: {
          jobs: answer.jobs,
          pagination: answer.pagination ?? {
            page: 1,
            totalPages: 1,
            total: 0,
            limit: FEED_PAGE_SIZE,
          },
        },
      },
    ]),
  )
}
