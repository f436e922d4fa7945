import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { CategorySidebar } from '@/features/feed/CategorySidebar'
import { feedActions } from '@/features/feed/feed-slice'
import { makePost, renderWithStore, signIn, stubFetch } from '@/test/feed-helpers'
import { jsonResponse } from '@/test/helpers'

describe('CategorySidebar', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => fetchStub?.restore())

  it('asks a guest to log in, without calling the server', () => {
    fetchStub = stubFetch(() => jsonResponse(500))
    renderWithStore(<CategorySidebar />)
    expect(screen.getByText('Please log in to view categories')).toBeInTheDocument()
    expect(fetchStub.spy).not.toHaveBeenCalled()
  })

  it('shows "Please log in to view categories" when the server answers 401', async () => {
    fetchStub = stubFetch(() => jsonResponse(401, { message: 'Unauthorized' }))
    const store = createStore()
    signIn(store)
    renderWithStore(<CategorySidebar />, { store })
    expect(await screen.findByText('Please log in to view categories')).toBeInTheDocument()
  })

  it('shows "Failed to load categories" on another failure', async () => {
    fetchStub = stubFetch(() => jsonResponse(400, { message: 'Bad' }))
    const store = createStore()
    signIn(store)
    renderWithStore(<CategorySidebar />, { store })
    expect(await screen.findByText('Failed to load categories')).toBeInTheDocument()
  })

  it('lists categories with counts and a total; choosing one filters and clears the selection', async () => {
    fetchStub = stubFetch((url) => {
      expect(url.pathname).toBe('/api/jobs/categories')
      expect(url.searchParams.get('includeEmpty')).toBe('false')
      expect(url.searchParams.get('includeUncategorized')).toBe('true')
      return jsonResponse(200, {
        categories: ['Moving', 'Tech'],
        metadata: { totalJobs: 7, counts: { Moving: 4, Tech: 3 } },
      })
    })
    const store = createStore()
    signIn(store)
    store.dispatch(feedActions.itemSelected({ type: 'job', item: makePost() }))
    renderWithStore(<CategorySidebar />, { store })
    expect(await screen.findByText('Total: 7 posts')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Moving/ }))
    await waitFor(() => expect(store.getState().feed.category).toBe('Moving'))
    expect(store.getState().feed.selected).toBeNull()
    expect(screen.getByRole('button', { name: /Moving/ })).toHaveAttribute('aria-pressed', 'true')
  })
})
