import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { modalOpened } from '@/app/ui-slice'
import { renderModal, samplePost, viewer } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import RequestPostModal from '@/features/requests/send/RequestPostModal'

describe('send-request-to-post modal', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => fetchStub?.restore())

  it('shows the Profile Required prompt to a signed-in user who is not a worker', () => {
    renderModal(<RequestPostModal post={samplePost} />, { user: { ...viewer, isWorker: false } })
    expect(screen.getByRole('dialog', { name: 'Profile Required' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send a request' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create my worker profile' })).toBeInTheDocument()
  })

  it('offers Login and Create account to a guest instead of sending', () => {
    renderModal(<RequestPostModal post={samplePost} />, { user: null })
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create account' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send a request' })).not.toBeInTheDocument()
  })

  it('a worker who already requested the post reads the 409 text and "Already Requested"', async () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/jobs/requests') {
        bodies.push(await request.json())
        return jsonResponse(409, { message: 'Request already exists' })
      }
      return jsonResponse(404, {})
    })
    renderModal(<RequestPostModal post={samplePost} />)
    await userEvent.click(screen.getByRole('button', { name: 'Send a request' }))
    expect(
      await screen.findByText('You have already sent a request for this post'),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Already Requested' })).toBeDisabled()
    expect(bodies).toEqual([{ postID: 'post1' }])
  })

  it('shows the server message of a 400; after a successful send, offers the conversation, and Done closes', async () => {
    let answer = jsonResponse(400, { message: 'This post is not taking requests right now' })
    fetchStub = stubFetch(() => answer)
    const { store } = renderModal(<RequestPostModal post={samplePost} />)
    store.dispatch(modalOpened({ kind: 'requestPost', post: samplePost }))
    await userEvent.click(screen.getByRole('button', { name: 'Send a request' }))
    expect(
      await screen.findByText('This post is not taking requests right now'),
    ).toBeInTheDocument()
    // Not a duplicate: the button stays usable for when the post is back online.
    expect(screen.getByRole('button', { name: 'Send a request' })).toBeEnabled()

    answer = jsonResponse(201, { _id: 'r1', postId: 'post1', status: 'pending' })
    await userEvent.click(screen.getByRole('button', { name: 'Send a request' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Your request was sent.')
    expect(screen.getByRole('link', { name: 'Message' })).toHaveAttribute(
      'href',
      '/messages/request/r1',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(store.getState().ui.modal).toBeNull())
  })

  it('falls back to the generic text when the server fails', async () => {
    fetchStub = stubFetch(() => jsonResponse(500, {}))
    renderModal(<RequestPostModal post={samplePost} />)
    await userEvent.click(screen.getByRole('button', { name: 'Send a request' }))
    expect(
      await screen.findByText('Failed to send request. Please try again later.'),
    ).toBeInTheDocument()
  })
})
