import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { OFFER_MESSAGES } from '@marketplace/contracts/marketplace'
import { renderModal, samplePost } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import RequestPostModal from '@/features/requests/send/RequestPostModal'

describe('send-request-to-post modal: the optional offer', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => fetchStub?.restore())

  const sentBodies = () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/jobs/requests') {
        bodies.push(await request.json())
        return jsonResponse(201, { _id: 'r1', postId: 'post1', status: 'pending' })
      }
      return jsonResponse(404, {})
    })
    return bodies
  }

  it('sends the amount, unit, note and time with the request', async () => {
    const user = userEvent.setup()
    const bodies = sentBodies()
    renderModal(<RequestPostModal post={samplePost} />)
    await user.type(screen.getByLabelText(/Your offer/), '80.50')
    await user.type(screen.getByLabelText(/Note/), 'I bring my brushes')
    await user.type(screen.getByLabelText(/When you can do it/), 'Saturday 9am')
    await user.click(screen.getByRole('button', { name: 'Send a request' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Your request was sent.')
    expect(bodies).toEqual([
      {
        postID: 'post1',
        offer: {
          amount: 80.5,
          unit: 'fixed',
          note: 'I bring my brushes',
          proposedTime: 'Saturday 9am',
        },
      },
    ])
  })

  it('refuses a bad amount with the server message before sending anything', async () => {
    const user = userEvent.setup()
    const bodies = sentBodies()
    renderModal(<RequestPostModal post={samplePost} />)
    for (const [typed, message] of [
      ['0', OFFER_MESSAGES.amountPositive],
      ['12.345', OFFER_MESSAGES.amountDecimals],
      ['250000', OFFER_MESSAGES.amountTooLarge],
      ['lots', OFFER_MESSAGES.amountRequired],
    ] as const) {
      await user.clear(screen.getByLabelText(/Your offer/))
      await user.type(screen.getByLabelText(/Your offer/), typed)
      await user.click(screen.getByRole('button', { name: 'Send a request' }))
      expect(screen.getByLabelText(/Your offer/)).toHaveAccessibleDescription(message)
    }
    expect(bodies).toEqual([])
  })

  it('preselects per hour for a post whose salary is hourly', async () => {
    const user = userEvent.setup()
    const bodies = sentBodies()
    renderModal(<RequestPostModal post={{ ...samplePost, salary: '$20/hour' }} />)
    expect(screen.getByLabelText('Price')).toHaveValue('hour')
    await user.type(screen.getByLabelText(/Your offer/), '22')
    await user.click(screen.getByRole('button', { name: 'Send a request' }))
    await waitFor(() =>
      expect(bodies).toEqual([{ postID: 'post1', offer: { amount: 22, unit: 'hour' } }]),
    )
  })
})
