import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { feedParams } from '@/features/feed/feed-api'
import { feedActions } from '@/features/feed/feed-slice'
import HomePage from '@/features/feed/HomePage'
import { makePerson, makePost, renderWithStore, stubFetch } from '@/test/feed-helpers'
import { jsonResponse } from '@/test/helpers'

describe('HomePage', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => fetchStub?.restore())

  it('loads the posts with the feed filters and pages through them', async () => {
    const asked: URL[] = []
    fetchStub = stubFetch((url) => {
      asked.push(url)
      const page = Number(url.searchParams.get('page'))
      return jsonResponse(200, {
        jobs: [makePost({ _id: `p${page}`, title: `Post on page ${page}` })],
        pagination: { page, totalPages: 2, total: 13 },
      })
    })
    const store = createStore()
    store.dispatch(feedActions.filterSelected({ filter: 'payment', value: 'Cash' }))
    renderWithStore(<HomePage />, { store })

    expect(screen.getByText('Loading posts...')).toBeInTheDocument()
    expect(await screen.findByText('Post on page 1')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument()
    expect(store.getState().feed.total).toBe(13)
    expect(asked[0]?.pathname).toBe('/api/jobs')
    expect(asked[0]?.searchParams.get('payment')).toBe('Cash')
    expect(asked[0]?.searchParams.get('sort')).toBe('desc')
    expect(asked[0]?.searchParams.has('category')).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Post on page 2')).toBeInTheDocument()
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
  })

  it('shows the people feed and its error text', async () => {
    fetchStub = stubFetch(() => jsonResponse(400, { message: 'nope' }))
    const store = createStore()
    store.dispatch(feedActions.feedTypeSelected('worker'))
    renderWithStore(<HomePage />, { store })
    expect(screen.getByText('Loading workers...')).toBeInTheDocument()
    expect(
      await screen.findByText('Failed to fetch workers. Please try again.'),
    ).toBeInTheDocument()
  })

  it('shows the jobs error text', async () => {
    fetchStub = stubFetch(() => jsonResponse(404, { message: 'nope' }))
    renderWithStore(<HomePage />)
    expect(await screen.findByText('Failed to fetch jobs. Please try again.')).toBeInTheDocument()
  })

  it('shows an empty state when nothing matches', async () => {
    fetchStub = stubFetch(() =>
      jsonResponse(200, { jobs: [], pagination: { page: 1, totalPages: 1, total: 0 } }),
    )
    renderWithStore(<HomePage />)
    expect(await screen.findByText('No posts found.')).toBeInTheDocument()
  })

  it('toggles to people', async () => {
    fetchStub = stubFetch((url) =>
      url.pathname === '/api/people'
        ? jsonResponse(200, {
            people: [makePerson()],
            pagination: { page: 1, totalPages: 1, total: 1 },
          })
        : jsonResponse(200, { jobs: [], pagination: { page: 1, totalPages: 1, total: 0 } }),
    )
    const { store } = renderWithStore(<HomePage />)
    await userEvent.click(screen.getByRole('button', { name: 'People' }))
    expect(store.getState().feed.feedType).toBe('worker')
    expect(await screen.findByText('Noah Lee')).toBeInTheDocument()
  })

  it('shows only the selected item without pagination, with a way back', async () => {
    fetchStub = stubFetch(() =>
      jsonResponse(200, {
        jobs: [makePost({ _id: 'other', title: 'Another post' })],
        pagination: { page: 1, totalPages: 3, total: 30 },
      }),
    )
    const store = createStore()
    store.dispatch(
      feedActions.itemSelected({ type: 'job', item: makePost({ title: 'The chosen one' }) }),
    )
    renderWithStore(<HomePage />, { store })
    expect(screen.getByText('The chosen one')).toBeInTheDocument()
    expect(screen.queryByText(/Page \d of/)).not.toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: /Show all posts/ }))
    expect(store.getState().feed.selected).toBeNull()
    expect(await screen.findByText('Another post')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByText('Page 1 of 3')).toBeInTheDocument())
  })
})

describe('feedParams', () => {
  it('sends category, location, payment and contact only when not All', () => {
    expect(
      feedParams({
        category: 'All',
        location: 'Remote',
        payment: 'All',
        contact: 'Email',
        page: 2,
        sort: 'asc',
      }),
    ).toEqual({ location: 'Remote', contact: 'Email', page: '2', sort: 'asc' })
  })
})
