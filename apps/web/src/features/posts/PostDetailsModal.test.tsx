import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { openModalOf, renderModal, samplePost, viewer } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import PostDetailsModal from '@/features/posts/PostDetailsModal'
import { POST_PICTURE_SIZES } from '@/components/ui/PostFieldsView'
import { decorativeIcon, isFilled } from '@/test/icons'

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

  it('shows the picture in a size for the dialog, w1280 at most', () => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
    renderModal(<PostDetailsModal post={{ ...samplePost, jobPicture: 'jobImages/owner1/a.png' }} />)
    const img = screen.getByRole('img', { name: 'Picture of Paint my fence' })
    expect(img).toHaveAttribute('sizes', POST_PICTURE_SIZES)
    expect(img).toHaveAttribute(
      'srcset',
      '/jobImages/owner1/a.w480.png 480w, /jobImages/owner1/a.w960.png 960w, /jobImages/owner1/a.w1280.png 1280w',
    )
    expect(img).toHaveAttribute('src', '/jobImages/owner1/a.w960.png')
  })

  it('masks a private location and contact with the acceptance tooltip', () => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
    renderModal(<PostDetailsModal post={samplePost} />)
    const masked = screen.getAllByTitle('Visible only once your request is accepted')
    expect(masked).toHaveLength(2)
  })

  describe('the contact value', () => {
    const contactPost = {
      ...samplePost,
      location: 'Austin TX',
      displayLocation: true,
      contact: 'WhatsApp',
    }
    it('shows the accepted worker the value, with a copy button that says Copied', async () => {
      fetchStub = stubFetch(() => jsonResponse(200, []))
      // user-event's session puts a clipboard of its own in place of the browser's.
      const user = userEvent.setup()
      renderModal(
        <PostDetailsModal
          post={{
            ...contactPost,
            authorizedUsers: [viewer._id],
            contactValue: '5125550100',
          }}
        />,
      )
      expect(screen.getByText('WhatsApp')).toBeInTheDocument()
      expect(screen.getByText('(512) 555-0100')).toBeInTheDocument()
      const copy = screen.getByRole('button', { name: 'Copy WhatsApp number' })
      expect(copy).toHaveTextContent('Copy')
      await user.click(copy)
      await waitFor(() => expect(copy).toHaveTextContent('Copied'))
      expect(await navigator.clipboard.readText()).toBe('(512) 555-0100')
      expect(screen.getByRole('status')).toHaveTextContent('Copied')
      expect(screen.queryAllByTitle('Visible only once your request is accepted')).toHaveLength(0)
    })

    it('shows a private contact to anyone else as a blurred mask with the acceptance tooltip, method included', () => {
      fetchStub = stubFetch(() => jsonResponse(200, []))
      renderModal(
        <PostDetailsModal
          post={{ ...contactPost, contact: null, contactValue: null, displayContact: false }}
        />,
      )
      expect(screen.queryByText('WhatsApp')).toBeNull()
      const masked = screen.getByLabelText(/^Contact hidden/)
      expect(masked).toHaveAttribute('title', 'Visible only once your request is accepted')
      expect(screen.queryByRole('button', { name: /^Copy/ })).toBeNull()
    })

    it('says the poster will share it in the conversation when a post has none', () => {
      fetchStub = stubFetch(() => jsonResponse(200, []))
      renderModal(<PostDetailsModal post={{ ...contactPost, contactValue: null }} />)
      expect(screen.getByText('WhatsApp')).toBeInTheDocument()
      expect(screen.getByText('The poster will share it in the conversation')).toBeInTheDocument()
    })

    it('reads the post from the jobs service when it came from a list without the value', async () => {
      const calls: string[] = []
      fetchStub = stubFetch((path, request) => {
        calls.push(`${request.method} ${path}`)
        return jsonResponse(200, path === '/api/jobs/post1' ? contactPost : [])
      })
      renderModal(<PostDetailsModal post={contactPost} />)
      await waitFor(() => expect(calls).toContain('GET /api/jobs/post1'))
    })

    it('shows the owner their value, and asks them to add one to a post without', () => {
      fetchStub = stubFetch(() => jsonResponse(200, []))
      const { unmount } = renderModal(
        <PostDetailsModal
          post={{
            ...contactPost,
            userID: viewer._id,
            contact: 'Instagram',
            contactValue: 'ava.paints',
          }}
        />,
      )
      expect(screen.getByText('@ava.paints')).toBeInTheDocument()
      expect(screen.getByRole('button', { name: 'Copy Instagram handle' })).toBeInTheDocument()
      unmount()
      renderModal(
        <PostDetailsModal
          post={{
            ...contactPost,
            userID: viewer._id,
            contactValue: null,
          }}
        />,
      )
      expect(screen.getByText('No contact details yet: add them with Modify')).toBeInTheDocument()
    })
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
    const saved = await screen.findByRole('button', { name: 'Saved' })
    expect(saved).toHaveAttribute('aria-pressed', 'true')
    expect(isFilled(decorativeIcon(saved))).toBe(true)
    await userEvent.click(saved)
    await waitFor(() => expect(calls).toContain('DELETE /api/favorites/posts/viewer1/post1'))
  })

  it('reports a failed favorite update', async () => {
    fetchStub = stubFetch((_path, request) =>
      request.method === 'POST' ? jsonResponse(500, {}) : jsonResponse(200, []),
    )
    renderModal(<PostDetailsModal post={samplePost} />)
    const save = await screen.findByRole('button', { name: 'Save' })
    expect(save).toHaveAttribute('aria-pressed', 'false')
    expect(isFilled(decorativeIcon(save))).toBe(false)
    await userEvent.click(save)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error updating favorites. Please try again.',
    )
  })

  it('sends a guest who favorites to /login', async () => {
    const { router } = renderModal(<PostDetailsModal post={samplePost} />, { user: null })
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(router.state.location.pathname).toBe('/login')
  })
})
