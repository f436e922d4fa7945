import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import MyWorkerProfilePage from '@/features/settings/worker-profile/MyWorkerProfilePage'
import { renderPage, selfProfile } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import type { PersonSelfView } from '@marketplace/contracts/api'
import { recordAnalytics } from '@/test/analytics'
import { FakeUpload, installFakeUpload } from '@/test/fake-upload'
import { Messages } from '@marketplace/contracts/validation'
import { decorativeIcon, isFilled } from '@/test/icons'

const worker: PersonSelfView = {
  ...selfProfile,
  isWorker: true,
  title: 'Gardener',
  skills: [],
  availability: 'Weekends',
  paymentType: '',
  location: '',
  infos: '',
  isOnline: true,
  contacts: [{ value: 'ava@example.test', visibility: 'public' }],
  rating: { average: 4.25, count: 3 },
}

/** A profile the edit form saves as it is (every required field filled). */
const saveable: PersonSelfView = {
  ...worker,
  skills: ['Mowing'],
  paymentType: 'Hourly',
  location: 'Springfield',
}

describe('my worker profile page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('asks a logged-out visitor to log in', () => {
    renderPage(<MyWorkerProfilePage />, { user: null })
    expect(screen.getByText('Please log in to view your profile.')).toBeInTheDocument()
  })

  it('invites a user without a worker profile to create one', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, selfProfile))
    renderPage(<MyWorkerProfilePage />)
    expect(await screen.findByRole('heading', { name: 'Create Your Profile' })).toBeInTheDocument()
    expect(
      screen.getByText('Set up your profile to start receiving and sending request on posts'),
    ).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Create Profile' }))
    const dialog = screen.getByRole('dialog', { name: 'Create Profile' })
    expect(within(dialog).getByRole('button', { name: 'Create Profile' })).toBeInTheDocument()
  })

  it("shows a worker's profile with its empty sections and rating", async () => {
    fetchStub = stubFetch(() => jsonResponse(200, worker))
    renderPage(<MyWorkerProfilePage />)
    expect(await screen.findByRole('heading', { name: 'Gardener' })).toBeInTheDocument()
    expect(screen.getByText('No skills listed')).toBeInTheDocument()
    expect(screen.getByText('Weekends')).toBeInTheDocument()
    expect(screen.getAllByText('Not specified')).toHaveLength(2)
    expect(screen.queryByRole('heading', { name: 'Additional Information' })).toBeNull()
    const rating = screen.getByText('4.3 (3)')
    expect(rating).toHaveTextContent(/^Rated 4\.3 \(3\)$/)
    expect(isFilled(decorativeIcon(rating))).toBe(true)
    expect(screen.getByRole('switch', { name: 'Online' })).toBeChecked()
  })

  it('turns the worker offline with PATCH worker-status', async () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      if (request.method === 'PATCH') {
        const body = (await request.json()) as { isOnline: boolean }
        bodies.push(body)
        return jsonResponse(200, { ...worker, isOnline: body.isOnline })
      }
      return jsonResponse(200, worker)
    })
    renderPage(<MyWorkerProfilePage />)
    await userEvent.click(await screen.findByRole('switch', { name: 'Online' }))
    expect(await screen.findByRole('switch', { name: 'Offline' })).not.toBeChecked()
    expect(bodies).toEqual([{ isOnline: false }])
  })

  it('validates the edit form with the shared rules before saving', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, worker))
    renderPage(<MyWorkerProfilePage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit Profile' })
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Gardener')
    expect(
      within(dialog).getByText('Your contact information will be visible to everyone'),
    ).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('At least one skill is required')
  })

  it('saves the profile with parsed lists and one visibility, and closes on 200', async () => {
    let sent: Record<string, unknown> | null = null
    fetchStub = stubFetch(async (path, request) => {
      if (request.method === 'PUT' && path === '/api/users/u1/worker-profile') {
        sent = (await request.json()) as Record<string, unknown>
        return jsonResponse(200, { ...worker, ...sent, isWorker: true })
      }
      return jsonResponse(200, selfProfile)
    })
    const { store } = renderPage(<MyWorkerProfilePage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Create Profile' }))
    const dialog = screen.getByRole('dialog', { name: 'Create Profile' })
    const fill = (label: string, text: string) =>
      userEvent.type(within(dialog).getByLabelText(label), text)
    await fill('Title', 'Gardener')
    await fill('Skills', 'Mowing, , Pruning ')
    await fill('Availability', 'Weekends')
    await fill('Payment Type', 'Hourly')
    await fill('Location', 'Springfield')
    await fill('Contacts (optional)', 'ava@example.test, 555-0100')
    expect(
      within(dialog).getByText(
        'Your contact information will only be visible to users on who you made a post request',
      ),
    ).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Profile' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(sent).toEqual({
      title: 'Gardener',
      skills: ['Mowing', 'Pruning'],
      availability: 'Weekends',
      paymentType: 'Hourly',
      location: 'Springfield',
      infos: '',
      contacts: [
        { value: 'ava@example.test', visibility: 'hidden' },
        { value: '555-0100', visibility: 'hidden' },
      ],
    })
    expect(store.getState().auth.user?.isWorker).toBe(true)
  })

  it('refuses an SVG profile photo', async () => {
    fetchStub = stubFetch(() => jsonResponse(200, worker))
    renderPage(<MyWorkerProfilePage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    const input = screen.getByLabelText('Profile photo')
    const svg = new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' })
    await userEvent.upload(input, svg, { applyAccept: false })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error: Only .png, .jpg, .jpeg, .webp and .gif formats allowed!',
    )
  })

  it('still saves the profile, without a new picture, when the upload fails', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {})
    let sent: Record<string, unknown> | null = null
    fetchStub = stubFetch(async (path, request) => {
      if (path === '/api/upload/user-profile-picture') {
        return jsonResponse(503, { message: 'Storage unavailable' })
      }
      if (request.method === 'PUT') {
        sent = (await request.json()) as Record<string, unknown>
        return jsonResponse(200, { ...worker, ...sent })
      }
      return jsonResponse(200, {
        ...worker,
        skills: ['Mowing'],
        paymentType: 'Hourly',
        location: 'Springfield',
      })
    })
    renderPage(<MyWorkerProfilePage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
    const photo = new File(['png'], 'me.png', { type: 'image/png' })
    await userEvent.upload(screen.getByLabelText('Profile photo'), photo)
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your profile will be saved without a new picture.',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(sent).not.toBeNull()
    expect(sent).not.toHaveProperty('profilePicture')
    logged.mockRestore()
  })

  it('checks the uploaded photo, and saves without it when it is not really a picture', async () => {
    const restoreUpload = installFakeUpload()
    const checked: unknown[] = []
    let sent: Record<string, unknown> | null = null
    try {
      fetchStub = stubFetch(async (path, request) => {
        if (path === '/api/upload/user-profile-picture') {
          return jsonResponse(200, {
            presignedUrl: 'https://storage.test/put',
            objectKey: 'userImages/u1/photo.png',
          })
        }
        if (path === '/api/upload/complete') {
          checked.push(await request.json())
          return jsonResponse(400, { message: Messages.upload.notAPicture })
        }
        if (request.method === 'PUT') {
          sent = (await request.json()) as Record<string, unknown>
          return jsonResponse(200, { ...saveable, ...sent })
        }
        return jsonResponse(200, saveable)
      })
      renderPage(<MyWorkerProfilePage />)
      await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
      const photo = new File(['not a png'], 'me.png', { type: 'image/png' })
      await userEvent.upload(screen.getByLabelText('Profile photo'), photo)
      await waitFor(() => expect(FakeUpload.last).not.toBeNull())
      act(() => FakeUpload.last!.finish(200))
      expect(await screen.findByRole('alert')).toHaveTextContent(Messages.upload.notAPicture)
      expect(checked).toEqual([{ objectKey: 'userImages/u1/photo.png' }])
      await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
      expect(sent).not.toBeNull()
      expect(sent).not.toHaveProperty('profilePicture')
    } finally {
      restoreUpload()
    }
  })

  it('says it checks the uploaded photo, then saves it', async () => {
    const restoreUpload = installFakeUpload()
    let answerCheck: (response: Response) => void = () => {}
    let sent: Record<string, unknown> | null = null
    try {
      fetchStub = stubFetch(async (path, request) => {
        if (path === '/api/upload/user-profile-picture') {
          return jsonResponse(200, {
            presignedUrl: 'https://storage.test/put',
            objectKey: 'userImages/u1/photo.png',
          })
        }
        if (path === '/api/upload/complete') {
          return new Promise<Response>((resolve) => (answerCheck = resolve))
        }
        if (request.method === 'PUT') {
          sent = (await request.json()) as Record<string, unknown>
          return jsonResponse(200, { ...saveable, ...sent })
        }
        return jsonResponse(200, saveable)
      })
      renderPage(<MyWorkerProfilePage />)
      await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
      await userEvent.upload(
        screen.getByLabelText('Profile photo'),
        new File(['png'], 'me.png', { type: 'image/png' }),
      )
      await waitFor(() => expect(FakeUpload.last).not.toBeNull())
      act(() => FakeUpload.last!.finish(200))
      expect(await screen.findByText('Checking the picture…')).toHaveAttribute('role', 'status')
      expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled()
      answerCheck(
        jsonResponse(200, {
          objectKey: 'userImages/u1/photo.png',
          width: 800,
          height: 800,
          variants: [],
        }),
      )
      expect(await screen.findByText('Picture Uploaded')).toBeInTheDocument()
      await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
      expect(sent).toHaveProperty('profilePicture', 'userImages/u1/photo.png')
    } finally {
      restoreUpload()
    }
  })

  it('reports worker_profile_saved with how many of the six fields the saved profile fills', async () => {
    const analytics = recordAnalytics()
    try {
      fetchStub = stubFetch(async (_path, request) =>
        request.method === 'PUT'
          ? // The server's answer counts: title, skills, availability and location (not
            // paymentType, blank, nor infos); contacts are not one of the six.
            jsonResponse(200, {
              ...worker,
              skills: ['Mowing'],
              location: 'Springfield',
              paymentType: '  ',
            })
          : jsonResponse(200, worker),
      )
      renderPage(<MyWorkerProfilePage />)
      await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }))
      await userEvent.type(screen.getByLabelText('Skills'), 'Mowing')
      await userEvent.type(screen.getByLabelText('Payment Type'), 'Hourly')
      await userEvent.type(screen.getByLabelText('Location'), 'Springfield')
      await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
      expect(analytics.events()).toEqual([
        expect.objectContaining({
          name: 'worker_profile_saved',
          props: { completion: 4, of: 6 },
        }),
      ])
    } finally {
      analytics.stop()
    }
  })
})
