import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { createStore, type AppStore } from '@/app/store'
import FeedToolbar from '@/features/feed/FeedToolbar'
import HomePage from '@/features/feed/HomePage'
import { feedActions } from '@/features/feed/feed-slice'
import { makePost, stubFetch } from '@/test/feed-helpers'
import { jsonResponse } from '@/test/helpers'

/** The home page with its toolbar at `url` (path and query), and a page elsewhere. */
function renderHomeAt(url: string, store: AppStore = createStore()) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <FeedToolbar />
            <HomePage />
          </>
        ),
      },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [url] },
  )
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { router, store }
}

const search = (router: ReturnType<typeof renderHomeAt>['router']) =>
  new URLSearchParams(router.state.location.search)

describe("the home page's state in its URL", () => {
  let asked: URL[] = []
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  beforeEach(() => {
    asked = []
    fetchStub = stubFetch((url) => {
      asked.push(url)
      const near = url.searchParams.get('near')
      return jsonResponse(200, {
        jobs: [
          makePost({
            _id: 'p1',
            title: near ? `Within ${url.searchParams.get('within')} of ${near}` : 'Anywhere',
            distanceMiles: near ? 17.2 : undefined,
          }),
        ],
        pagination: { page: 1, totalPages: 1, total: 1 },
      })
    })
  })
  afterEach(() => fetchStub?.restore())

  it("opens a saved search's link with its controls set and asks the feed for exactly that", async () => {
    const { store, router } = renderHomeAt(
      '/?feed=job&category=Moving&payment=Cash&near=Austin%2C+TX&within=25&sort=distance',
    )
    expect(await screen.findByText('Within 25 of Austin, TX')).toBeInTheDocument()
    expect(screen.getByText('17.2 mi away')).toBeInTheDocument()
    const distance = screen.getByRole('form', { name: 'Distance' })
    expect(within(distance).getByLabelText('Within')).toHaveValue('25')
    expect(within(distance).getByLabelText('Of place')).toHaveValue('Austin, TX')
    expect(screen.getByLabelText('Payment')).toHaveValue('Cash')
    expect(screen.getByLabelText('Sort')).toHaveValue('distance')
    expect(store.getState().feed).toMatchObject({ feedType: 'job', category: 'Moving' })
    // Every request was the linked feed's: none for the default feed the page started from.
    expect(asked.length).toBeGreaterThan(0)
    for (const url of asked) {
      expect(url.pathname).toBe('/api/jobs')
      expect(Object.fromEntries(url.searchParams)).toEqual({
        category: 'Moving',
        payment: 'Cash',
        near: 'Austin, TX',
        within: '25',
        sort: 'distance',
        page: '1',
      })
    }
    // The page does not rewrite a URL it has read.
    expect(router.state.location.search).toBe(
      '?feed=job&category=Moving&payment=Cash&near=Austin%2C+TX&within=25&sort=distance',
    )
  })

  it('writes a changed filter into the URL in place, and a feed type as a new entry Back undoes', async () => {
    const { store, router } = renderHomeAt('/')
    expect(await screen.findByText('Anywhere')).toBeInTheDocument()
    expect(router.state.location.search).toBe('')

    await userEvent.selectOptions(screen.getByLabelText('Payment'), 'Cash')
    await waitFor(() => expect(search(router).get('payment')).toBe('Cash'))
    expect(router.state.historyAction).toBe('REPLACE')

    const distance = screen.getByRole('form', { name: 'Distance' })
    await userEvent.type(within(distance).getByLabelText('Of place'), 'Round Rock, TX{Enter}')
    await waitFor(() => expect(search(router).get('near')).toBe('Round Rock, TX'))
    expect(search(router).get('within')).toBe('25')
    expect(await screen.findByText('Within 25 of Round Rock, TX')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'People' }))
    await waitFor(() => expect(search(router).get('feed')).toBe('worker'))
    expect(router.state.historyAction).toBe('PUSH')

    await act(() => router.navigate(-1))
    await waitFor(() => expect(store.getState().feed.feedType).toBe('job'))
    expect(store.getState().feed).toMatchObject({ payment: 'Cash', near: 'Round Rock, TX' })

    // Reset is the default feed: a bare address.
    await userEvent.click(screen.getByRole('button', { name: 'Reset Filters' }))
    await waitFor(() => expect(router.state.location.search).toBe(''))
  })

  it('shows the default of every field whose value in the link is junk', async () => {
    const { store } = renderHomeAt(
      '/?feed=robots&category=Nope&payment=Bitcoin&within=7&sort=sideways&page=-4&near=Austin%2C+TX',
    )
    expect(await screen.findByText('Within 25 of Austin, TX')).toBeInTheDocument()
    expect(store.getState().feed).toMatchObject({
      feedType: 'job',
      category: 'All',
      payment: 'All',
      within: 25,
      sort: 'desc',
      page: 1,
      near: 'Austin, TX',
    })
    expect(screen.getByLabelText('Payment')).toHaveValue('All')
    for (const url of asked) {
      expect(Object.fromEntries(url.searchParams)).toEqual({
        near: 'Austin, TX',
        within: '25',
        sort: 'desc',
        page: '1',
      })
    }
  })

  it('narrows the feed to the words of the link, with a way to clear them', async () => {
    const { router } = renderHomeAt('/?feed=job&category=Moving&search=piano')
    expect(await screen.findByText('Posts matching “piano”')).toBeInTheDocument()
    // The search answers by words; the category is applied to its matches (makePost's is Moving).
    expect(await screen.findByText('Anywhere')).toBeInTheDocument()
    expect(asked[0]?.searchParams.get('search')).toBe('piano')
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }))
    await waitFor(() => expect(search(router).has('search')).toBe(false))
    expect(search(router).get('category')).toBe('Moving')
  })

  it('comes back from another page to the feed as it was, and writes it to the bare URL', async () => {
    const store = createStore()
    store.dispatch(feedActions.categorySelected('Moving'))
    const { router } = renderHomeAt('/elsewhere', store)
    expect(screen.getByText('Elsewhere')).toBeInTheDocument()
    await act(() => router.navigate('/'))
    await waitFor(() => expect(search(router).get('category')).toBe('Moving'))
    expect(router.state.historyAction).toBe('REPLACE')
    expect(store.getState().feed.category).toBe('Moving')
  })
})
