import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { feedActions } from '@/features/feed/feed-slice'
import {
  makePerson,
  makePost,
  renderWithStore,
  selectedItemOf,
  stubFetch,
} from '@/test/feed-helpers'
import { jsonResponse } from '@/test/helpers'
import SearchBar, { SEARCH_ERROR } from '@/features/feed/search/SearchBar'

describe('SearchBar', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    jest.useRealTimers()
  })

  const answerWith = (jobs: unknown[], people: unknown[]) =>
    stubFetch((url) =>
      url.pathname === '/api/jobs' ? jsonResponse(200, { jobs }) : jsonResponse(200, { people }),
    )

  it('reads "Search posts..." on the post feed and "Search people..." on the people feed', () => {
    fetchStub = answerWith([], [])
    const store = createStore()
    renderWithStore(<SearchBar />, { store })
    expect(screen.getByPlaceholderText('Search posts...')).toBeInTheDocument()
    act(() => {
      store.dispatch(feedActions.feedTypeSelected('worker'))
    })
    expect(screen.getByPlaceholderText('Search people...')).toBeInTheDocument()
  })

  it('waits 300 ms after the last keystroke, then searches both feeds with limit 10', async () => {
    jest.useFakeTimers()
    fetchStub = answerWith([], [])
    renderWithStore(<SearchBar />)
    const input = screen.getByRole('searchbox', { name: 'Search' })

    fireEvent.change(input, { target: { value: 'pa' } })
    act(() => jest.advanceTimersByTime(200))
    fireEvent.change(input, { target: { value: ' paint ' } })
    act(() => jest.advanceTimersByTime(299))
    expect(fetchStub.spy).not.toHaveBeenCalled()

    await act(async () => {
      jest.advanceTimersByTime(1)
    })
    await waitFor(() => expect(fetchStub?.spy).toHaveBeenCalledTimes(2))
    const urls = fetchStub.spy.mock.calls.map(([request]) => new URL((request as Request).url))
    expect(urls.map((url) => url.pathname).sort()).toEqual(['/api/jobs', '/api/people'])
    for (const url of urls) {
      expect(url.searchParams.get('search')).toBe('paint')
      expect(url.searchParams.get('limit')).toBe('10')
    }
  })

  it('searches nothing for a blank query', async () => {
    jest.useFakeTimers()
    fetchStub = answerWith([], [])
    renderWithStore(<SearchBar />)
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '    ' } })
    await act(async () => {
      jest.advanceTimersByTime(1000)
    })
    expect(fetchStub.spy).not.toHaveBeenCalled()
    expect(screen.queryByRole('list', { name: 'Search results' })).not.toBeInTheDocument()
  })

  it('choosing a person shows them in the feed: type, category, item, text cleared, back to /', async () => {
    const noah = makePerson({ _id: 'w1', firstName: 'Noah', lastName: 'Lee', category: 'Handyman' })
    fetchStub = answerWith([makePost({ title: 'Paint a fence' })], [noah])
    const { store, router } = renderWithStore(<SearchBar />, { at: '/settings-account' })
    const input = screen.getByRole('searchbox')
    await userEvent.type(input, 'noah lee')

    // Labelled by title first; the name rides beside it.
    const result = await screen.findByRole('button', { name: /Handyman.*Noah Lee/ })
    expect(screen.queryByRole('button', { name: /Paint a fence/ })).not.toBeInTheDocument()
    await userEvent.click(result)

    const feed = store.getState().feed
    expect(feed.feedType).toBe('worker')
    expect(feed.category).toBe('Handyman')
    expect(selectedItemOf(store)).toMatchObject({ type: 'worker', item: { _id: 'w1' } })
    expect(input).toHaveValue('')
    expect(screen.queryByRole('list', { name: 'Search results' })).not.toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/')
  })

  it('moves through results with the arrow keys and chooses one with Enter', async () => {
    fetchStub = answerWith(
      [
        makePost({ _id: 'p1', title: 'Paint a fence' }),
        makePost({ _id: 'p2', title: 'Paint a wall' }),
      ],
      [],
    )
    const store = createStore()
    store.dispatch(feedActions.feedTypeSelected('worker'))
    renderWithStore(<SearchBar />, { store })
    const user = userEvent.setup()
    await user.type(screen.getByRole('searchbox'), 'paint')
    await screen.findByRole('button', { name: /Paint a wall/ })

    await user.keyboard('{ArrowDown}')
    expect(screen.getByRole('button', { name: /Paint a fence/ })).toHaveFocus()
    await user.keyboard('{ArrowDown}')
    expect(screen.getByRole('button', { name: /Paint a wall/ })).toHaveFocus()
    await user.keyboard('{Enter}')

    const feed = store.getState().feed
    expect(feed.feedType).toBe('job')
    expect(feed.category).toBe('Moving')
    expect(selectedItemOf(store)).toMatchObject({ type: 'job', item: { _id: 'p2' } })
  })

  it('shows the search error in the dropdown with no results', async () => {
    fetchStub = stubFetch((url) =>
      url.pathname === '/api/jobs'
        ? jsonResponse(400, { message: 'bad' })
        : jsonResponse(200, { people: [makePerson({ firstName: 'Paul' })] }),
    )
    renderWithStore(<SearchBar />)
    await userEvent.type(screen.getByRole('searchbox'), 'paul')
    expect(await screen.findByText(SEARCH_ERROR)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Paul/ })).not.toBeInTheDocument()
  })

  it('closes the dropdown on a click outside', async () => {
    fetchStub = answerWith([makePost({ title: 'Paint a fence' })], [])
    renderWithStore(
      <>
        <p>elsewhere</p>
        <SearchBar />
      </>,
    )
    await userEvent.type(screen.getByRole('searchbox'), 'paint')
    await screen.findByRole('button', { name: /Paint a fence/ })
    await userEvent.click(screen.getByText('elsewhere'))
    expect(screen.queryByRole('button', { name: /Paint a fence/ })).not.toBeInTheDocument()
  })
})
