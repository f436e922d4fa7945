import type { JobsFeedAnswer } from '@marketplace/contracts/api'
import { FEED_PAGE_SIZE } from '@marketplace/contracts/marketplace'
import type { AppStore } from '@/app/store'
import { feedApi, feedQueryOf } from '@/features/feed/feed-api'
import { initialFeedState } from '@/features/feed/feed-slice'

/**
 * That answer as the home feed's first query (the slice's initial filters, page 1, newest
 * first), so the page's first render shows the same posts the HTML did, without asking again.
 */
export async function seedFirstFeedPage(store: AppStore, answer: JobsFeedAnswer): Promise<void> {
  await store.dispatch(
    feedApi.util.upsertQueryData('getJobsFeed', feedQueryOf(initialFeedState), {
      jobs: answer.jobs,
      pagination: answer.pagination ?? { page: 1, totalPages: 1, total: 0, limit: FEED_PAGE_SIZE },
    }),
  )
}
