import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderModal, samplePerson, samplePost } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import ReportModal from '@/features/reports/ReportModal'

describe('report modal', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => fetchStub?.restore())

  it('asks for a reason before sending anything', async () => {
    fetchStub = stubFetch(() => jsonResponse(201, {}))
    renderModal(<ReportModal target={{ kind: 'post', post: samplePost }} />)
    await userEvent.click(screen.getByRole('button', { name: 'Submit report' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a reason for reporting')
    expect(fetchStub.spy).not.toHaveBeenCalled()
  })

  it('lists the three reasons with their labels', () => {
    renderModal(<ReportModal target={{ kind: 'post', post: samplePost }} />)
    expect(screen.getByRole('radio', { name: 'Scam/Fraud' })).toBeInTheDocument()
    expect(
      screen.getByRole('radio', { name: 'Inappropriate/Offensive Content' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Other' })).toBeInTheDocument()
  })

  it('turns the server\'s "Cannot report yourself" into "You cannot report yourself"', async () => {
    fetchStub = stubFetch(() => jsonResponse(400, { message: 'Cannot report yourself' }))
    renderModal(<ReportModal target={{ kind: 'person', person: samplePerson }} />)
    await userEvent.click(screen.getByRole('radio', { name: 'Other' }))
    await userEvent.click(screen.getByRole('button', { name: 'Submit report' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot report yourself')
  })

  it('sends the post id, reason and details, and answers a second report with the 409 text', async () => {
    const bodies: unknown[] = []
    fetchStub = stubFetch(async (path, request) => {
      bodies.push({ path, body: await request.json() })
      return jsonResponse(409, { message: 'whatever the server says' })
    })
    renderModal(<ReportModal target={{ kind: 'post', post: samplePost }} />)
    await userEvent.click(screen.getByRole('radio', { name: 'Scam/Fraud' }))
    await userEvent.type(screen.getByLabelText('Details (optional)'), ' Asks for a deposit ')
    await userEvent.click(screen.getByRole('button', { name: 'Submit report' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have already submitted a report for this post',
    )
    expect(bodies).toEqual([
      {
        path: '/api/reports/posts',
        body: { postId: 'post1', type: 'scam', description: 'Asks for a deposit' },
      },
    ])
  })

  it('thanks the reporter once the report is filed', async () => {
    fetchStub = stubFetch(() => jsonResponse(201, { _id: 'rep1' }))
    renderModal(<ReportModal target={{ kind: 'person', person: samplePerson }} />)
    await userEvent.click(screen.getByRole('radio', { name: 'Inappropriate/Offensive Content' }))
    await userEvent.click(screen.getByRole('button', { name: 'Submit report' }))
    expect(await screen.findByText(/Thank you for your report/)).toBeInTheDocument()
  })

  it('asks a guest to log in', () => {
    renderModal(<ReportModal target={{ kind: 'post', post: samplePost }} />, { user: null })
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Submit report' })).not.toBeInTheDocument()
  })
})
