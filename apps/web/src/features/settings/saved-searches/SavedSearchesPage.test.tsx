import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { SavedSearch } from '@marketplace/contracts/api'
import SavedSearchesPage from '@/features/settings/saved-searches/SavedSearchesPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch, withRenewal } from '@/test/helpers'

const movers: SavedSearch = {
  _id: 's1',
  name: 'Movers',
  query: 'feed=job&category=Moving',
  paused: false,
  email: 'immediate',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
}
const gardens: SavedSearch = {
  ...movers,
  _id: 's2',
  name: 'Gardens',
  query: 'feed=job&category=Gardening',
  paused: true,
  email: 'off',
}

/** The notifications service's saved searches, kept in memory as the routes keep them. */
function savedSearchesService(initial: SavedSearch[]) {
  let searches = [...initial]
  const calls: string[] = []
  const handler = withRenewal(async (url, request) => {
    if (url === '/api/notifications/saved-searches' && request.method === 'GET')
      return jsonResponse(200, { savedSearches: searches, limit: 20 })
    const match = /^\/api\/notifications\/saved-searches\/(.+)$/.exec(url)
    if (match && request.method === 'PATCH') {
      const changes = (await request.json()) as Partial<SavedSearch>
      calls.push(`PATCH ${match[1]} ${JSON.stringify(changes)}`)
      searches = searches.map((search) =>
        search._id === match[1] ? { ...search, ...changes } : search,
      )
      return jsonResponse(
        200,
        searches.find((search) => search._id === match[1]),
      )
    }
    if (match && request.method === 'DELETE') {
      calls.push(`DELETE ${match[1]}`)
      searches = searches.filter((search) => search._id !== match[1])
      return jsonResponse(200, { deleted: true })
    }
    return jsonResponse(404, { message: 'unexpected' })
  })
  return { handler, calls }
}

describe('Settings › Saved searches', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('lists the searches with their e-mail choice and state, each opening its feed', async () => {
    fetchStub = stubFetch(savedSearchesService([movers, gardens]).handler)
    renderPage(<SavedSearchesPage />)
    expect(screen.getByRole('heading', { name: 'Saved searches' })).toBeInTheDocument()
    const items = within(await screen.findByRole('list')).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(screen.getByRole('link', { name: 'Movers' })).toHaveAttribute(
      'href',
      '/?feed=job&category=Moving',
    )
    expect(screen.getByLabelText('E-mail for Movers')).toHaveValue('immediate')
    expect(screen.getByLabelText('E-mail for Gardens')).toHaveValue('off')
    expect(items[1]).toHaveTextContent('(paused)')
    expect(screen.getByRole('button', { name: 'Resume Gardens' })).toBeInTheDocument()
    expect(screen.getByText(/up to 20/)).toBeInTheDocument()
  })

  it('changes the e-mail, pauses, renames and deletes', async () => {
    const service = savedSearchesService([movers, gardens])
    fetchStub = stubFetch(service.handler)
    renderPage(<SavedSearchesPage />)
    await screen.findByRole('list')

    await userEvent.selectOptions(screen.getByLabelText('E-mail for Movers'), 'daily')
    await waitFor(() => expect(screen.getByLabelText('E-mail for Movers')).toHaveValue('daily'))

    await userEvent.click(screen.getByRole('button', { name: 'Pause Movers' }))
    expect(await screen.findByRole('button', { name: 'Resume Movers' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Rename Movers' }))
    const name = screen.getByLabelText('New name for Movers')
    await userEvent.clear(name)
    await userEvent.type(name, 'Piano movers')
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByRole('link', { name: 'Piano movers' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Delete Gardens' }))
    await waitFor(() => expect(screen.queryByText('Gardens')).toBeNull())

    expect(service.calls).toEqual([
      'PATCH s1 {"email":"daily"}',
      'PATCH s1 {"paused":true}',
      'PATCH s1 {"name":"Piano movers"}',
      'DELETE s2',
    ])
  })

  it("shows the service's reason when a change is refused, and says when there are none", async () => {
    fetchStub = stubFetch(
      withRenewal((url, request) =>
        request.method === 'GET'
          ? jsonResponse(200, { savedSearches: [movers], limit: 20 })
          : jsonResponse(400, { message: 'Please give the search a name' }),
      ),
    )
    renderPage(<SavedSearchesPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Movers' }))
    await userEvent.clear(screen.getByLabelText('New name for Movers'))
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please give the search a name')
    fetchStub.restore()

    fetchStub = stubFetch(withRenewal(() => jsonResponse(200, { savedSearches: [], limit: 20 })))
    renderPage(<SavedSearchesPage />)
    expect(await screen.findByText('You have no saved searches yet.')).toBeInTheDocument()
  })
})
