import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import FeedToolbar from '@/features/feed/FeedToolbar'
import { feedActions, initialFeedState } from '@/features/feed/feed-slice'
import { loadLocationSearch, matchLocations } from '@/features/feed/location-search'
import { renderWithStore } from '@/test/feed-helpers'

describe('FeedToolbar', () => {
  it('Reset Filters returns sort to Recent, view to Grid and the filters to All', async () => {
    const store = createStore()
    store.dispatch(feedActions.sortSelected('asc'))
    store.dispatch(feedActions.viewSelected('list'))
    store.dispatch(feedActions.filterSelected({ filter: 'location', value: 'Remote' }))
    store.dispatch(feedActions.filterSelected({ filter: 'payment', value: 'Cash' }))
    store.dispatch(feedActions.filterSelected({ filter: 'contact', value: 'Email' }))
    renderWithStore(<FeedToolbar />, { store })
    expect(screen.getByLabelText('Sort')).toHaveValue('asc')

    await userEvent.click(screen.getByRole('button', { name: 'Reset Filters' }))

    const feed = store.getState().feed
    expect(feed).toMatchObject({
      sort: 'desc',
      view: 'grid',
      location: 'All',
      payment: 'All',
      contact: 'All',
      page: 1,
    })
    expect(screen.getByLabelText('Sort')).toHaveValue('desc')
    expect(screen.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true')
  })

  it('changes view, sort and the payment and contact filters', async () => {
    const { store } = renderWithStore(<FeedToolbar />)
    await userEvent.click(screen.getByRole('button', { name: 'List' }))
    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'Oldest')
    await userEvent.selectOptions(screen.getByLabelText('Payment'), 'Venmo')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'X(Twitter)')
    expect(store.getState().feed).toEqual({
      ...initialFeedState,
      view: 'list',
      sort: 'asc',
      payment: 'Venmo',
      contact: 'X(Twitter)',
    })
  })

  it('picks a location from the dropdown, and closes it on a click outside', async () => {
    const { store } = renderWithStore(<FeedToolbar />)
    await userEvent.click(screen.getByRole('button', { name: 'Location: All' }))
    const options = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent)
    expect(options.slice(0, 4)).toEqual(['All', 'Remote', 'Hybrid', 'New York NY'])
    await userEvent.click(screen.getByRole('button', { name: 'Hybrid' }))
    expect(store.getState().feed.location).toBe('Hybrid')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Location: Hybrid' }))
    expect(screen.getByRole('listbox')).toBeInTheDocument()
    await userEvent.click(document.body)
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
  })

  it('searches locations fuzzily and accepts a custom location when nothing matches', async () => {
    const { store } = renderWithStore(<FeedToolbar />)
    await userEvent.click(screen.getByRole('button', { name: 'Location: All' }))
    await userEvent.type(screen.getByLabelText('Search locations'), 'Seatle')
    expect(screen.getByRole('button', { name: 'Seattle WA' })).toBeInTheDocument()

    await userEvent.clear(screen.getByLabelText('Search locations'))
    await userEvent.type(screen.getByLabelText('Search locations'), 'Reykjavik')
    await userEvent.click(screen.getByRole('button', { name: 'Use "Reykjavik"' }))
    expect(store.getState().feed.location).toBe('Reykjavik')
  })
})

describe('matchLocations', () => {
  it('finds close spellings and nothing for an unrelated text', async () => {
    await loadLocationSearch() // fuse.js loads when the filter is about to be used
    expect(matchLocations('san fran')[0]).toBe('San Francisco CA')
    expect(matchLocations('san fransisco')[0]).toBe('San Francisco CA')
    expect(matchLocations('zzzzqq')).toEqual([])
  })
})

describe('FeedToolbar on mobile (<= 768 px)', () => {
  const original = window.matchMedia
  beforeEach(() => {
    window.matchMedia = ((query: string) => ({
      matches: query === '(max-width: 768px)',
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    })) as typeof window.matchMedia
  })
  afterEach(() => {
    window.matchMedia = original
  })

  it('shows a compact bar with the total count and the same controls', () => {
    const store = createStore()
    store.dispatch(feedActions.feedTypeSelected('worker'))
    store.dispatch(feedActions.totalChanged(42))
    renderWithStore(<FeedToolbar />, { store })
    expect(screen.getByText('42 people')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Grid' })).toBeInTheDocument()
    expect(screen.getByLabelText('Sort')).toBeInTheDocument()
    expect(screen.getByLabelText('Payment')).toBeInTheDocument()
    expect(screen.getByLabelText('Contact')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Location: All' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reset Filters' })).toBeInTheDocument()
  })
})
