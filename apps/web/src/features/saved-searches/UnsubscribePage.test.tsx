import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { createStore } from '@/app/store'
import UnsubscribePage from '@/features/saved-searches/UnsubscribePage'
import { jsonResponse, stubFetch } from '@/test/helpers'

function renderAt(address: string) {
  const router = createMemoryRouter(
    [{ path: '/saved-searches/unsubscribe', element: <UnsubscribePage /> }],
    {
      initialEntries: [address],
    },
  )
  render(
    <Provider store={createStore()}>
      <RouterProvider router={router} />
    </Provider>,
  )
}

describe('the unsubscribe page of a saved search e-mail', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('changes nothing on opening, and stops the e-mails with one click, signed out', async () => {
    const sent: Array<{ token: string; authorization: string | null }> = []
    fetchStub = stubFetch(async (url, request) => {
      if (url === '/api/notifications/saved-searches/unsubscribe' && request.method === 'POST') {
        sent.push({
          ...((await request.json()) as { token: string }),
          authorization: request.headers.get('authorization'),
        })
        return jsonResponse(200, { name: 'Pianos in Austin' })
      }
      return jsonResponse(404, { message: 'unexpected' })
    })
    renderAt('/saved-searches/unsubscribe?token=s1.signature')
    expect(
      screen.getByRole('heading', { name: 'Stop e-mails for a saved search' }),
    ).toBeInTheDocument()
    expect(sent).toEqual([])
    await userEvent.click(screen.getByRole('button', { name: 'Stop these e-mails' }))
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You will get no more e-mails for “Pianos in Austin”.',
    )
    expect(sent).toEqual([{ token: 's1.signature', authorization: null }])
  })

  it("shows the service's reason for a link that is not valid", async () => {
    fetchStub = stubFetch(() =>
      jsonResponse(404, {
        message:
          'This unsubscribe link is not valid. Open Settings, Saved searches to change your e-mails.',
      }),
    )
    renderAt('/saved-searches/unsubscribe?token=tampered')
    await userEvent.click(screen.getByRole('button', { name: 'Stop these e-mails' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This unsubscribe link is not valid.',
    )
  })
})
