import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { openModalOf, renderModal, samplePost, viewer } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import PostDetailsModal from '@/features/posts/PostDetailsModal'

describe('post details modal', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('shows the owner no favorite, request or report button', () => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
    renderModal(<PostDetailsModal post={{ ...samplePost, userID: viewer._id }} />)
    expect(screen.getByRole('dialog', { name: 'Paint my fence' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Save/ })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Send request' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull()
  })

  it('masks a private location and contact with the acceptance tooltip', () => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
    renderModal(<PostDetailsModal post={samplePost} />)
    const masked = screen.getAllByTitle('Visible only once your request is accepted')
    expect(masked).toHaveLength(2)
  })

  it('opens the request and report modals for another user', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
    const { store } = renderModal(<PostDetailsModal post={samplePost} />)
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(openModalOf(store)).toEqual({ kind: 'requestPost', post: samplePost })
    await userEvent.click(screen.getByRole('button', { name: 'Report' }))
    expect(openModalOf(store)).toEqual({ kind: 'reportPost', post: samplePost })
  })

  it('shows the saved state and removes the favorite', async () => {
    const calls: string[] = []
    fetchStub = stubFetch((path, request) => {
      calls.push(`${request.method} ${path}`)
      if (request.method === 'DELETE') return jsonResponse(204)
      return jsonResponse(200, [
        { favoriteID: samplePost, createdAt: '2026-01-01', updatedAt: '2026-01-01' },
      ])
    })
    renderModal(<PostDetailsModal post={samplePost} />)
    const saved = await screen.findByRole('button', { name: '♥ Saved' })
    expect(saved).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(saved)
    await waitFor(() => expect(calls).toContain('DELETE /api/favorites/posts/viewer1/post1'))
  })

  it('reports a failed favorite update', async () => {
    fetchStub = stubFetch((_path, request) =>
      request.method === 'POST' ? jsonResponse(500, {}) : jsonResponse(200, []),
    )
    renderModal(<PostDetailsModal post={samplePost} />)
    await userEvent.click(await screen.findByRole('button', { name: '♡ Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error updating favorites. Please try again.',
    )
  })

  it('sends a guest who favorites to /login', async () => {
    const { router } = renderModal(<PostDetailsModal post={samplePost} />, { user: null })
    await userEvent.click(screen.getByRole('button', { name: '♡ Save' }))
    expect(router.state.location.pathname).toBe('/login')
  })
})
