import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { SaveSearchButton } from '@/features/saved-searches/SaveSearchButton'
import { renderRoutes, signIn, jsonResponse, stubFetch, withRenewal } from '@/test/helpers'

function renderButton({ signedIn = true } = {}) {
  const store = createStore()
  if (signedIn) signIn(store)
  const button = (
    <SaveSearchButton
      query="feed=job&category=Moving&location=Austin&payment=Cash"
      suggestedName="Moving in Austin"
    />
  )
  return renderRoutes([{ path: '/', element: button }], { store })
}

describe('Save this search', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('names the search, starting from the suggested name, and saves its query', async () => {
    const sent: unknown[] = []
    fetchStub = stubFetch(
      withRenewal(async (url, request) => {
        if (url === '/api/notifications/saved-searches' && request.method === 'POST') {
          const body = (await request.json()) as { name: string; query: string }
          sent.push(body)
          return jsonResponse(201, {
            _id: 's1',
            name: body.name,
            query: body.query,
            paused: false,
            email: 'immediate',
            createdAt: '2026-11-29T10:00:00.000Z',
            updatedAt: '2026-11-29T10:00:00.000Z',
          })
        }
        return jsonResponse(404, { message: 'unexpected' })
      }),
    )
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: 'Save this search' }))
    const name = screen.getByLabelText('Name this search')
    expect(name).toHaveValue('Moving in Austin')
    await userEvent.clear(name)
    await userEvent.type(name, 'Movers near me')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Saved “Movers near me”. We will let you know when a new post matches it.',
    )
    expect(sent).toEqual([
      { name: 'Movers near me', query: 'feed=job&category=Moving&location=Austin&payment=Cash' },
    ])
    expect(screen.getByRole('link', { name: 'Manage saved searches' })).toHaveAttribute(
      'href',
      '/settings-saved-searches',
    )
  })

  it("shows the service's reason when the search cannot be saved (the limit)", async () => {
    fetchStub = stubFetch(
      withRenewal(() =>
        jsonResponse(409, {
          message: 'You can keep at most 20 saved searches. Delete one to save this search.',
          code: 'SAVED_SEARCH_LIMIT',
        }),
      ),
    )
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: 'Save this search' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You can keep at most 20 saved searches. Delete one to save this search.',
    )
    // The form stays, with its name, to try again after deleting one.
    expect(screen.getByLabelText('Name this search')).toHaveValue('Moving in Austin')
  })

  it('is not offered to guests', () => {
    renderButton({ signedIn: false })
    expect(screen.queryByRole('button', { name: 'Save this search' })).toBeNull()
  })
})
