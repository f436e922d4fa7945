import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderModal, samplePerson, samplePost, viewer } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import RequestPersonModal from '@/features/requests/send/RequestPersonModal'

const myPost = { ...samplePost, userID: viewer._id, location: 'Austin TX' }

describe('send-request-to-person modal', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  const choosePost = async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Select a post' }))
    expect(screen.getByText('Choose the post you want to send a request for')).toBeInTheDocument()
    const confirm = screen.getByRole('button', { name: 'Confirm Selection' })
    expect(confirm).toBeDisabled()
    await userEvent.click(await screen.findByRole('button', { name: 'Select' }))
    await userEvent.click(confirm)
  }

  it('keeps Send request disabled until a post is chosen, then sends postID and requestedID', async () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/jobs/my-jobs') return jsonResponse(200, { jobs: [myPost] })
      bodies.push(await request.json())
      return jsonResponse(409, { message: 'duplicate' })
    })
    renderModal(<RequestPersonModal person={samplePerson} />)
    expect(screen.getByText('31 years old')).toBeInTheDocument()
    expect(screen.getByText('Painting - Drywall')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send request' })).toBeDisabled()

    await choosePost()
    expect(screen.getByRole('button', { name: 'Change post' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have already sent a request to this person for this post',
    )
    expect(bodies).toEqual([{ postID: 'post1', requestedID: 'worker1' }])
  })

  it('lists the posts that cannot take a request last, their Select disabled with the reason', async () => {
    const offline = { ...myPost, _id: 'post2', title: 'Paused job', isOnline: false }
    const expired = { ...myPost, _id: 'post3', title: 'Old job', expirationDate: '2020-01-01' }
    const takenDown = { ...myPost, _id: 'post4', title: 'Removed job', takenDown: true as const }
    fetchStub = stubFetch(() => jsonResponse(200, { jobs: [offline, expired, takenDown, myPost] }))
    renderModal(<RequestPersonModal person={samplePerson} />)
    await userEvent.click(screen.getByRole('button', { name: 'Select a post' }))
    const items = await screen.findAllByRole('listitem')
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual([
      'Paint my fence',
      'Paused job',
      'Old job',
      'Removed job',
    ])
    const selects = screen.getAllByRole('button', { name: 'Select' })
    expect(selects[0]).toBeEnabled()
    expect(selects[1]).toBeDisabled()
    expect(selects[1]).toHaveAccessibleDescription(
      'Offline: switch it online to request people for it',
    )
    expect(selects[2]).toHaveAccessibleDescription('Expired')
    expect(selects[3]).toHaveAccessibleDescription('Taken down by a moderator')
  })

  it('once sent, confirms and offers "Message" to the request’s conversation', async () => {
    fetchStub = stubFetch((path) =>
      path === '/api/jobs/my-jobs'
        ? jsonResponse(200, { jobs: [myPost] })
        : jsonResponse(201, {
            _id: 'req9',
            status: 'pending',
            createdAt: '2026-01-02T10:00:00.000Z',
            updatedAt: '2026-01-02T10:00:00.000Z',
            post: { _id: 'post1', title: myPost.title },
            requestedPerson: { _id: 'worker1', name: 'Wes Worker' },
          }),
    )
    renderModal(<RequestPersonModal person={samplePerson} />)
    await choosePost()
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Your request was sent for "${myPost.title}".`,
    )
    expect(screen.getByRole('link', { name: 'Message' })).toHaveAttribute(
      'href',
      '/messages/request/req9',
    )
    expect(screen.getByRole('button', { name: 'Done' })).toBeInTheDocument()
  })

  it('says "No jobs available" when the user has no post', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
    renderModal(<RequestPersonModal person={samplePerson} />)
    await userEvent.click(screen.getByRole('button', { name: 'Select a post' }))
    expect(await screen.findByText('No jobs available')).toBeInTheDocument()
  })

  it('says "Failed to load posts" when the list cannot be read', async () => {
    fetchStub = stubFetch(() => jsonResponse(404, { message: 'nope' }))
    renderModal(<RequestPersonModal person={samplePerson} />)
    await userEvent.click(screen.getByRole('button', { name: 'Select a post' }))
    expect(await screen.findByText('Failed to load posts')).toBeInTheDocument()
  })

  it('alerts the generic failure for a server error', async () => {
    const alert = jest.spyOn(window, 'alert').mockImplementation(() => {})
    fetchStub = stubFetch((path) =>
      path === '/api/jobs/my-jobs' ? jsonResponse(200, [myPost]) : jsonResponse(500, {}),
    )
    renderModal(<RequestPersonModal person={samplePerson} />)
    await choosePost()
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Failed to send request. Please try again later.'),
    )
    alert.mockRestore()
  })

  it('refuses to send for a person without a name', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, [myPost]))
    renderModal(
      <RequestPersonModal person={{ ...samplePerson, name: '', firstName: '', lastName: '' }} />,
    )
    await choosePost()
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Worker information not available.')
  })

  it('offers Login and Create account to a guest', () => {
    renderModal(<RequestPersonModal person={samplePerson} />, { user: null })
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create account' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send request' })).toBeNull()
  })
})
