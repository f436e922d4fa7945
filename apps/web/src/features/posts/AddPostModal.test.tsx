import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { modalOpened } from '@/app/ui-slice'
import { renderModal } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import { FakeUpload, installFakeUpload } from '@/test/fake-upload'
import AddPostModal from '@/features/posts/AddPostModal'
import { Messages } from '@marketplace/contracts/validation'

const picture = (name: string, type: string, size = 1024) => {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}
const KEY = 'jobImages/viewer1/abc.png'
const pick = (file: File) =>
  fireEvent.change(screen.getByLabelText(/^Picture/), { target: { files: [file] } })

describe('add a post modal', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  let restoreUpload = () => {}
  beforeEach(() => {
    restoreUpload = installFakeUpload()
  })
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
    restoreUpload()
    jest.useRealTimers()
  })

  it('keeps Preview disabled with its hint until title and where are filled', async () => {
    renderModal(<AddPostModal />)
    const preview = screen.getByRole('button', { name: 'Preview' })
    expect(preview).toBeDisabled()
    expect(screen.getByText('Title and Location are required for preview')).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
    expect(preview).toBeDisabled()
    await userEvent.type(screen.getByLabelText('Where *'), '   ')
    expect(preview).toBeDisabled()
    await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
    expect(preview).toBeEnabled()
    expect(screen.queryByText('Title and Location are required for preview')).toBeNull()

    await userEvent.click(preview)
    expect(screen.getByRole('dialog', { name: 'Post preview' })).toBeInTheDocument()
    expect(screen.getByText('Austin TX')).toBeInTheDocument()
  })

  it('defaults location and contact to private', () => {
    renderModal(<AddPostModal />)
    expect(
      screen.getByRole('checkbox', { name: 'Show the location to everyone' }),
    ).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Show the contact to everyone' })).not.toBeChecked()
  })

  it('refuses a picture of another format or over 5MB without uploading', () => {
    fetchStub = stubFetch(() => jsonResponse(200, {}))
    renderModal(<AddPostModal />)
    pick(picture('anim.gif', 'image/gif'))
    expect(
      screen.getByText('Error: Only .png, .jpg, and .jpeg formats allowed!'),
    ).toBeInTheDocument()
    pick(picture('big.png', 'image/png', 5 * 1024 * 1024 + 1))
    expect(screen.getByText('Error: File size exceeds 5MB limit')).toBeInTheDocument()
    expect(fetchStub.spy).not.toHaveBeenCalled()
  })

  it('uploads on pick with a progress bar, has the picture checked, then says "Picture Uploaded"', async () => {
    const calls: unknown[] = []
    let answerCheck: (response: Response) => void = () => {}
    fetchStub = stubFetch(async (path, request) => {
      calls.push({
        path,
        authorization: request.headers.get('authorization'),
        body: await request.json(),
      })
      if (path === '/api/upload/complete') {
        return new Promise<Response>((resolve) => (answerCheck = resolve))
      }
      return jsonResponse(200, { presignedUrl: 'https://storage.test/put', objectKey: KEY })
    })
    renderModal(<AddPostModal />)
    pick(picture('fence.png', 'image/png', 2048))
    await waitFor(() => expect(FakeUpload.last).not.toBeNull())
    expect(calls).toEqual([
      {
        path: '/api/upload',
        authorization: 'Bearer token',
        body: { fileName: 'fence.png', fileType: 'image/png', fileSize: 2048 },
      },
    ])
    act(() => FakeUpload.last!.progress(40))
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute(
      'value',
      '40',
    )
    expect(screen.getByRole('button', { name: 'Add this post' })).toBeDisabled()
    act(() => FakeUpload.last!.finish(200))
    expect(FakeUpload.last!.url).toBe('https://storage.test/put')

    // Once stored, the media service checks the bytes and makes the sizes: the form waits.
    expect(await screen.findByRole('status')).toHaveTextContent('Checking the picture…')
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(screen.getByRole('button', { name: 'Add this post' })).toBeDisabled()
    expect(screen.getByLabelText(/^Picture/)).toBeDisabled()
    expect(calls[1]).toEqual({
      path: '/api/upload/complete',
      authorization: 'Bearer token',
      body: { objectKey: KEY },
    })
    answerCheck(
      jsonResponse(200, {
        objectKey: KEY,
        width: 1600,
        height: 1200,
        variants: ['jobImages/viewer1/abc.w480.webp'],
      }),
    )
    expect(await screen.findByText('Picture Uploaded')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Add this post' })).toBeEnabled()
  })

  it('says why a file that is not really a picture is refused, and creates the post without it', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] })
    const created: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/upload/complete') {
        return jsonResponse(400, { message: Messages.upload.notAPicture })
      }
      if (path === '/api/jobs' && request.method === 'POST') {
        created.push(await request.json())
        return jsonResponse(201, { _id: 'p1', title: 'Paint my fence' })
      }
      if (path === '/api/upload') {
        return jsonResponse(200, { presignedUrl: 'https://storage.test/put', objectKey: KEY })
      }
      return jsonResponse(200, [])
    })
    renderModal(<AddPostModal />)
    pick(picture('fence.png', 'image/png'))
    await waitFor(() => expect(FakeUpload.last).not.toBeNull())
    act(() => FakeUpload.last!.finish(200))
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.upload.notAPicture)
    // The service's own words stay: they say the file is gone.
    act(() => jest.advanceTimersByTime(6000))
    expect(screen.getByRole('alert')).toHaveTextContent(Messages.upload.notAPicture)

    fireEvent.change(screen.getByLabelText('Title *'), { target: { value: 'Paint my fence' } })
    fireEvent.change(screen.getByLabelText('Where *'), { target: { value: 'Austin TX' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add this post' }))
    await waitFor(() => expect(created).toHaveLength(1))
    expect(created[0]).toMatchObject({ title: 'Paint my fence', jobPicture: null })
  })

  it('keeps the picture when the check cannot answer (the service checks it on save)', async () => {
    const created: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/upload/complete') return jsonResponse(503, { message: 'Unavailable' })
      if (path === '/api/jobs' && request.method === 'POST') {
        created.push(await request.json())
        return jsonResponse(201, { _id: 'p1', title: 'Paint my fence' })
      }
      if (path === '/api/upload') {
        return jsonResponse(200, { presignedUrl: 'https://storage.test/put', objectKey: KEY })
      }
      return jsonResponse(200, [])
    })
    renderModal(<AddPostModal />)
    pick(picture('fence.png', 'image/png'))
    await waitFor(() => expect(FakeUpload.last).not.toBeNull())
    act(() => FakeUpload.last!.finish(200))
    expect(await screen.findByText('Picture Uploaded')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
    await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
    await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))
    await waitFor(() => expect(created).toHaveLength(1))
    expect(created[0]).toMatchObject({ jobPicture: KEY })
  })

  it('previews the picked file from its local address, as it is', async () => {
    const preview = 'blob:http://localhost/4f1c-preview'
    const { createObjectURL, revokeObjectURL } = URL
    Object.assign(URL, { createObjectURL: () => preview, revokeObjectURL: () => {} })
    try {
      fetchStub = stubFetch((path) =>
        path === '/api/upload/complete'
          ? jsonResponse(200, { objectKey: KEY, width: 800, height: 600, variants: [] })
          : jsonResponse(200, { presignedUrl: 'https://storage.test/put', objectKey: KEY }),
      )
      renderModal(<AddPostModal />)
      pick(picture('fence.png', 'image/png'))
      await waitFor(() => expect(FakeUpload.last).not.toBeNull())
      act(() => FakeUpload.last!.finish(200))
      expect(await screen.findByText('Picture Uploaded')).toBeInTheDocument()
      await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
      await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
      await userEvent.click(screen.getByRole('button', { name: 'Preview' }))
      const img = screen.getByRole('img', { name: 'Picture of Paint my fence' })
      expect(img).toHaveAttribute('src', preview)
      expect(img).not.toHaveAttribute('srcset')
    } finally {
      Object.assign(URL, { createObjectURL, revokeObjectURL })
    }
  })

  it('treats an upload the service does not know as a failed upload', async () => {
    fetchStub = stubFetch((path) =>
      path === '/api/upload/complete'
        ? jsonResponse(404, { message: Messages.upload.pictureNotFound })
        : jsonResponse(200, { presignedUrl: 'https://storage.test/put', objectKey: KEY }),
    )
    renderModal(<AddPostModal />)
    pick(picture('fence.jpg', 'image/jpeg'))
    await waitFor(() => expect(FakeUpload.last).not.toBeNull())
    act(() => FakeUpload.last!.finish(200))
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.upload.failed)
  })

  it('says the post goes without an image when the upload fails, then "No image will be used" after 5 s', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] })
    fetchStub = stubFetch(() =>
      jsonResponse(200, { presignedUrl: 'https://storage.test/put', objectKey: 'k' }),
    )
    renderModal(<AddPostModal />)
    pick(picture('fence.jpg', 'image/jpeg'))
    await waitFor(() => expect(FakeUpload.last).not.toBeNull())
    act(() => FakeUpload.last!.finish(403))
    expect(
      await screen.findByText(
        'Error: Unable to upload image. Your post will be created without an image.',
      ),
    ).toBeInTheDocument()
    act(() => jest.advanceTimersByTime(4900))
    expect(screen.queryByText('No image will be used')).toBeNull()
    act(() => jest.advanceTimersByTime(200))
    expect(screen.getByText('No image will be used')).toBeInTheDocument()
  })

  it('alerts a guest that they must be logged in', async () => {
    const alert = jest.spyOn(window, 'alert').mockImplementation(() => {})
    renderModal(<AddPostModal />, { user: null })
    await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))
    expect(alert).toHaveBeenCalledWith('You must be logged in to create a job')
    alert.mockRestore()
  })

  it('creates the post with the form names, shows the overlay and closes after 2 s', async () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/jobs' && request.method === 'POST') {
        bodies.push(await request.json())
        return jsonResponse(201, { _id: 'p1', title: 'Paint my fence' })
      }
      return jsonResponse(200, [])
    })
    const { store } = renderModal(<AddPostModal />)
    store.dispatch(modalOpened({ kind: 'addPost' }))
    await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
    await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
    await userEvent.click(screen.getByRole('checkbox', { name: 'Cash' }))
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Phone')
    await userEvent.type(screen.getByLabelText('Phone number (optional)'), '(512) 555-0100')
    await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))

    expect(await screen.findByText('Post created successfully!')).toBeInTheDocument()
    expect(bodies).toEqual([
      {
        title: 'Paint my fence',
        where: 'Austin TX',
        when: '',
        howmuch: '',
        payment: ['Cash'],
        contact: 'Phone',
        contactValue: '5125550100',
        infos: '',
        expirationDate: null,
        displayLocation: false,
        displayContact: false,
        jobPicture: null,
        category: 'Handyman',
      },
    ])
    expect(screen.getByLabelText('Title *')).toHaveValue('')
    await waitFor(() => expect(store.getState().ui.modal).toBeNull(), { timeout: 3000 })
  })

  describe('the category', () => {
    it("pre-selects the server's guess as the title is typed, among the feed's categories", async () => {
      renderModal(<AddPostModal />)
      const category = screen.getByLabelText('Category')
      expect(Array.from(category.querySelectorAll('option')).map((option) => option.value)).toEqual(
        [
          'Moving',
          'Cleaning',
          'Handyman',
          'Tech',
          'Tutoring',
          'Pet care',
          'Delivery',
          'Events',
          'Gardening',
          'Uncategorized',
        ],
      )
      expect(category).toHaveValue('Uncategorized')
      const title = screen.getByLabelText('Title *')
      await userEvent.type(title, 'Walk my dog')
      expect(category).toHaveValue('Pet care')
      await userEvent.clear(title)
      await userEvent.type(title, 'Fix a leaking faucet')
      expect(category).toHaveValue('Handyman')
      // With nothing in the title, the infos decide, as on the server.
      await userEvent.clear(title)
      await userEvent.type(title, 'Saturday help')
      expect(category).toHaveValue('Uncategorized')
      await userEvent.type(screen.getByLabelText('Infos'), 'Mow the lawn')
      expect(category).toHaveValue('Gardening')
      expect(category).toHaveAccessibleDescription(
        'Suggested from what you wrote; pick another if it fits better',
      )
    })

    it("keeps the user's choice as the title changes, and sends it", async () => {
      const bodies: Array<Record<string, unknown>> = []
      fetchStub = stubFetch(async (path, request) => {
        if (path === '/api/jobs' && request.method === 'POST') {
          bodies.push(await request.json())
          return jsonResponse(201, { _id: 'p1', title: 'Walk my dog' })
        }
        return jsonResponse(200, [])
      })
      renderModal(<AddPostModal />)
      const category = screen.getByLabelText('Category')
      await userEvent.type(screen.getByLabelText('Title *'), 'Walk my')
      await userEvent.selectOptions(category, 'Events')
      await userEvent.type(screen.getByLabelText('Title *'), ' dog')
      expect(category).toHaveValue('Events')
      expect(category).not.toHaveAccessibleDescription()
      await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
      await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))
      await waitFor(() => expect(bodies).toHaveLength(1))
      expect(bodies[0]).toMatchObject({ title: 'Walk my dog', category: 'Events' })
    })
  })

  it('creates a post with a contact method and no value: the value is optional, and says why it helps', async () => {
    const bodies: Array<Record<string, unknown>> = []
    fetchStub = stubFetch(async (_path, request) => {
      if (request.method === 'POST') bodies.push(await request.json())
      return jsonResponse(201, {})
    })
    renderModal(<AddPostModal />)
    await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
    await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Email')
    const address = screen.getByLabelText('E-mail address (optional)')
    expect(address).toHaveAccessibleDescription('Optional, so an accepted worker can reach you')
    await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))
    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]).toMatchObject({ title: 'Paint my fence', contact: 'Email', contactValue: '' })
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('asks for the contact value right after the method, shaped after it', async () => {
    renderModal(<AddPostModal />)
    expect(screen.queryByLabelText(/number|handle|address/)).toBeNull()
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'WhatsApp')
    const number = screen.getByLabelText('WhatsApp number (optional)')
    expect(number).toHaveAttribute('inputmode', 'tel')
    expect(number).toHaveAttribute('placeholder', '(555) 123-4567')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Instagram')
    expect(screen.getByLabelText('Instagram handle (optional)')).toHaveAttribute(
      'placeholder',
      '@yourname',
    )
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Email')
    expect(screen.getByLabelText('E-mail address (optional)')).toHaveAttribute('inputmode', 'email')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), '')
    expect(screen.queryByLabelText('E-mail address (optional)')).toBeNull()
  })

  it('says what is wrong with the value once the field is left, and refuses to send it', async () => {
    const posted: string[] = []
    fetchStub = stubFetch((path, request) => {
      if (request.method === 'POST') posted.push(path)
      return jsonResponse(200, [])
    })
    renderModal(<AddPostModal />)
    await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
    await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Telegram')
    const number = screen.getByLabelText('Telegram number (optional)')
    await userEvent.type(number, '555-01')
    expect(screen.queryByText('Enter a 10-digit phone number for Telegram')).toBeNull()
    await userEvent.tab()
    expect(number).toHaveAttribute('aria-invalid', 'true')
    expect(number).toHaveAccessibleDescription('Enter a 10-digit phone number for Telegram')
    await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Enter a 10-digit phone number for Telegram',
    )
    expect(posted).toEqual([])
    await userEvent.type(number, '00 123')
    expect(number).toHaveAttribute('aria-invalid', 'false')
  })

  it('keeps the number when the method changes to another phone app, not to a handle', async () => {
    renderModal(<AddPostModal />)
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Phone')
    await userEvent.type(screen.getByLabelText('Phone number (optional)'), '5125550100')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'WhatsApp')
    expect(screen.getByLabelText('WhatsApp number (optional)')).toHaveValue('5125550100')
    await userEvent.selectOptions(screen.getByLabelText('Contact'), 'Discord')
    expect(screen.getByLabelText('Discord handle (optional)')).toHaveValue('')
  })

  it('shows the create failure text', async () => {
    fetchStub = stubFetch(() => jsonResponse(500, { message: 'boom' }))
    renderModal(<AddPostModal />)
    await userEvent.type(screen.getByLabelText('Title *'), 'Paint my fence')
    await userEvent.type(screen.getByLabelText('Where *'), 'Austin TX')
    await userEvent.click(screen.getByRole('button', { name: 'Add this post' }))
    expect(await screen.findByText('Failed to create job. Please try again.')).toBeInTheDocument()
  })
})
