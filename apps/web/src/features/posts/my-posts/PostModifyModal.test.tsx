import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { jsonResponse, renderRoutes, signIn, stubFetch } from '@/test/helpers'
import type { JobPost } from '@marketplace/contracts/api'
import { PostModifyModal, changesFromForm, formFromPost } from './PostModifyModal'

const post: JobPost = {
  _id: 'p1',
  jobID: 'p1',
  userID: 'u1',
  title: 'Move a piano',
  location: '12 Main St',
  jobStartEnd: 'Saturday',
  salary: '$80',
  paymentType: ['Cash', 'Zelle'],
  contact: 'Phone',
  infos: 'Third floor',
  displayLocation: false,
  displayContact: true,
  jobPicture: null,
  category: 'Moving',
  isOnline: true,
  expirationDate: null,
  authorizedUsers: [],
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
}

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

function renderModal({ signedIn = true, onClose = jest.fn(), subject = post } = {}) {
  const store = createStore()
  if (signedIn) signIn(store)
  renderRoutes([{ path: '/', element: <PostModifyModal post={subject} onClose={onClose} /> }], {
    store,
  })
  return onClose
}

describe('post modify form', () => {
  it('prefills the payment list joined with " - " and splits it back on "-", trimmed', () => {
    const form = formFromPost(post)
    expect(form.payment).toBe('Cash - Zelle')
    expect(
      changesFromForm({ ...form, payment: ' Cash App -Venmo-  - Check ' }).paymentType,
    ).toEqual(['Cash App', 'Venmo', 'Check'])
  })

  it('Confirm Changes sends every field but the title, payment as a list', async () => {
    const user = userEvent.setup()
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (_url, request) => {
      bodies.push(await request.json())
      return jsonResponse(200, post)
    })
    const onClose = renderModal()
    const payment = screen.getByLabelText('Payment')
    await user.clear(payment)
    await user.type(payment, 'Venmo - PayPal')
    await user.click(screen.getByRole('button', { name: 'Hide contact' }))
    await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(bodies).toEqual([
      {
        location: '12 Main St',
        jobStartEnd: 'Saturday',
        salary: '$80',
        paymentType: ['Venmo', 'PayPal'],
        contact: 'Phone',
        contactValue: '',
        infos: 'Third floor',
        displayLocation: false,
        displayContact: false,
        category: 'Moving',
      },
    ])
  })

  describe('the category', () => {
    it("shows the post's category and sends the one chosen", async () => {
      const user = userEvent.setup()
      const bodies: Array<Record<string, unknown>> = []
      fetchStub = stubFetch(async (_url, request) => {
        bodies.push(await request.json())
        return jsonResponse(200, { ...post, category: 'Tech' })
      })
      const onClose = renderModal()
      const category = screen.getByLabelText('Category')
      expect(category).toHaveValue('Moving')
      await user.selectOptions(category, 'Tech')
      // The title cannot change here, so nothing re-guesses: the infos do not move it.
      await user.type(screen.getByLabelText('Infos'), ', and mow the lawn')
      expect(category).toHaveValue('Tech')
      await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
      await waitFor(() => expect(onClose).toHaveBeenCalled())
      expect(bodies[0]).toMatchObject({ category: 'Tech' })
    })

    it('Undo changes puts the category back', async () => {
      const user = userEvent.setup()
      renderModal()
      await user.selectOptions(screen.getByLabelText('Category'), 'Events')
      await user.click(screen.getByRole('button', { name: 'Undo changes' }))
      expect(screen.getByLabelText('Category')).toHaveValue('Moving')
    })

    it('keeps an older category outside the list by not sending it', () => {
      const form = formFromPost({ ...post, category: 'Plumbing' })
      expect(form.category).toBe('Plumbing')
      expect(changesFromForm(form)).not.toHaveProperty('category')
      expect(changesFromForm({ ...form, category: 'Handyman' }).category).toBe('Handyman')
    })
  })

  describe('the contact value', () => {
    const withValue: JobPost = { ...post, contactValue: '5125550100' }

    it('prefills the value after the method and sends it back as its 10 digits', async () => {
      const user = userEvent.setup()
      const bodies: Array<Record<string, unknown>> = []
      fetchStub = stubFetch(async (_url, request) => {
        bodies.push(await request.json())
        return jsonResponse(200, withValue)
      })
      const onClose = renderModal({ subject: withValue })
      const number = screen.getByLabelText('Phone number (optional)')
      expect(number).toHaveValue('(512) 555-0100')
      await user.clear(number)
      await user.type(number, '512.555.0199')
      await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
      await waitFor(() => expect(onClose).toHaveBeenCalled())
      expect(bodies[0]).toMatchObject({ contact: 'Phone', contactValue: '5125550199' })
    })

    it('empties the value when the method changes kind, and refuses a value of the wrong kind before any call', async () => {
      const user = userEvent.setup()
      fetchStub = stubFetch(() => jsonResponse(200, withValue))
      renderModal({ subject: withValue })
      await user.selectOptions(screen.getByLabelText('Contact'), 'Email')
      const address = screen.getByLabelText('E-mail address (optional)')
      expect(address).toHaveValue('')
      await user.type(address, '512 555 0100')
      await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Enter an e-mail address for Email, like name@example.com',
      )
      expect(fetchStub.spy).not.toHaveBeenCalled()
    })

    it('saves a method without a value (the value is optional), and lets the owner add one', async () => {
      const user = userEvent.setup()
      const bodies: Array<Record<string, unknown>> = []
      fetchStub = stubFetch(async (_url, request) => {
        bodies.push(await request.json())
        return jsonResponse(200, post)
      })
      const onClose = renderModal()
      const number = screen.getByLabelText('Phone number (optional)')
      expect(number).toHaveValue('')
      await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
      await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1))
      expect(bodies[0]).toMatchObject({ contact: 'Phone', contactValue: '' })
    })

    it('sends a value the owner adds to a post without one', async () => {
      const user = userEvent.setup()
      const bodies: Array<Record<string, unknown>> = []
      fetchStub = stubFetch(async (_url, request) => {
        bodies.push(await request.json())
        return jsonResponse(200, post)
      })
      const onClose = renderModal()
      await user.type(screen.getByLabelText('Phone number (optional)'), '(512) 555-0100')
      await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
      await waitFor(() => expect(onClose).toHaveBeenCalled())
      expect(bodies[0]).toMatchObject({ contact: 'Phone', contactValue: '5125550100' })
    })
  })

  it('Undo changes puts the post back in the form', async () => {
    const user = userEvent.setup()
    renderModal()
    const where = screen.getByLabelText('Where')
    await user.clear(where)
    await user.type(where, 'Elsewhere')
    await user.click(screen.getByRole('button', { name: 'Undo changes' }))
    expect(screen.getByLabelText('Where')).toHaveValue('12 Main St')
  })

  it('without an access token it says the data to update is missing', async () => {
    renderModal({ signedIn: false })
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm Changes' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Missing required data to update job')
  })

  it('a payment outside the list is refused before any call', async () => {
    const user = userEvent.setup()
    fetchStub = stubFetch(() => jsonResponse(200, post))
    renderModal()
    await user.type(screen.getByLabelText('Payment'), ' - Gold bars')
    await user.click(screen.getByRole('button', { name: 'Confirm Changes' }))
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please choose payment options from the list',
    )
    expect(fetchStub.spy).not.toHaveBeenCalled()
  })

  it('a server failure shows the update failure text', async () => {
    fetchStub = stubFetch(() => jsonResponse(500, { message: 'boom' }))
    renderModal()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm Changes' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to update job. Please try again later.',
    )
  })
})
