import { createSlice, type Dispatch, type PayloadAction } from '@reduxjs/toolkit'
import type { JobPost } from '@marketplace/contracts/api'
import { personCached, postCached, type ShownPerson } from '@/lib/entities-api'

/**
 * The home feed's shared state: feed type, category, the single selected
 * item (by id: the item itself stays in RTK Query), the total, and the top bar's view, sort
 * and filters. (Owned by the feed feature; the top bar and search read and write it.)
 */
export type FeedType = 'job' | 'worker'

/** An item chosen to be shown alone, as the search box chose it. */
export type FeedItem = { type: 'job'; item: JobPost } | { type: 'worker'; item: ShownPerson }

export interface FeedState {
  feedType: FeedType
  category: string
  selected: { type: FeedType; id: string } | null
  total: number
  view: 'grid' | 'list'
  /** Recent, Oldest, or Nearest (only with a place: `near`). */
  sort: 'desc' | 'asc' | 'distance'
  /** "Within N miles of <place>": the place as typed, '' for any distance (docs/distance.md). */
  near: string
  /** The miles of the Within control, one of DISTANCE_CHOICES_MILES. */
  within: number
  /** The user set or cleared the place: their home place no longer fills it in. */
  nearChosen: boolean
  location: string
  payment: string
  contact: string
  /** Words the feed is narrowed to (a saved search's `search`), '' for none. */
  search: string
  page: number
}

/** The part of the feed's state the home page's URL holds (features/feed/feed-url-state.ts). */
export type FeedUrlState = Pick<
  FeedState,
  | 'feedType'
  | 'category'
  | 'location'
  | 'payment'
  | 'contact'
  | 'near'
  | 'within'
  | 'sort'
  | 'search'
  | 'page'
>

export const initialFeedState: FeedState = {
  feedType: 'job',
  category: 'All',
  selected: null,
  total: 0,
  view: 'grid',
  sort: 'desc',
  near: '',
  within: 25,
  nearChosen: false,
  location: 'All',
  payment: 'All',
  contact: 'All',
  search: '',
  page: 1,
}

export const feedSlice = createSlice({
  name: 'feed',
  initialState: initialFeedState,
  reducers: {
    feedTypeSelected(state, action: PayloadAction<FeedType>) {
      state.feedType = action.payload
      state.category = 'All'
      state.selected = null
      state.page = 1
    },
    categorySelected(state, action: PayloadAction<string>) {
      state.category = action.payload
      state.selected = null
      state.page = 1
    },
    itemSelected(state, action: PayloadAction<FeedState['selected']>) {
      state.selected = action.payload
    },
    totalChanged(state, action: PayloadAction<number>) {
      state.total = action.payload
    },
    viewSelected(state, action: PayloadAction<FeedState['view']>) {
      state.view = action.payload
    },
    sortSelected(state, action: PayloadAction<FeedState['sort']>) {
      state.sort = action.payload
      state.page = 1
    },
    filterSelected(
      state,
      action: PayloadAction<{ filter: 'location' | 'payment' | 'contact'; value: string }>,
    ) {
      state[action.payload.filter] = action.payload.value
      state.page = 1
    },
    /** A place and distance for the Within control; an empty place is any distance. */
    nearSelected(state, action: PayloadAction<{ near: string; within: number }>) {
      state.near = action.payload.near.trim()
      state.within = action.payload.within
      state.nearChosen = true
      if (!state.near && state.sort === 'distance') state.sort = 'desc'
      state.page = 1
    },
    /** The signed-in user's home place fills in the Within control until they choose. */
    homePlaceKnown(state, action: PayloadAction<string>) {
      if (state.nearChosen || state.near || !action.payload) return
      state.near = action.payload
      state.page = 1
    },
    /** The feed a URL names (`/?feed=job&near=...`, features/feed/use-feed-url-state.ts). */
    urlStateRead(state, action: PayloadAction<{ feed: FeedUrlState; named: boolean }>) {
      Object.assign(state, action.payload.feed)
      state.selected = null
      // A link that names a feed shows that feed: the home place does not fill in its place.
      state.nearChosen = action.payload.named
    },
    searchCleared(state) {
      state.search = ''
      state.page = 1
    },
    pageSelected(state, action: PayloadAction<number>) {
      state.page = action.payload
    },
    /** Reset returns sort to Recent, view to Grid and the three filters to all. */
    filtersReset(state) {
      state.sort = 'desc'
      state.view = 'grid'
      state.location = 'All'
      state.payment = 'All'
      state.contact = 'All'
      state.near = ''
      state.nearChosen = true
      state.search = ''
      state.page = 1
    },
  },
})

/** Shows one post or person alone; the item goes to the cache the feed reads it from. */
const itemSelected = (selection: FeedItem | null) => (dispatch: Dispatch) => {
  if (selection?.type === 'job') dispatch(postCached(selection.item))
  else if (selection?.type === 'worker') dispatch(personCached(selection.item))
  dispatch(
    feedSlice.actions.itemSelected(selection && { type: selection.type, id: selection.item._id }),
  )
}

export const feedActions = { ...feedSlice.actions, itemSelected }
export const feedReducer = feedSlice.reducer
export const selectFeed = (state: { feed: FeedState }) => state.feed
