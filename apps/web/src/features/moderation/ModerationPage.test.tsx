import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ModerationQueue, ModerationReport } from '@marketplace/contracts/api'
import { createStore } from '@/app/store'
import { jsonResponse, renderRoutes, sampleUser, signIn, stubFetch } from '@/test/helpers'
import ModerationPage from './ModerationPage'

const HOUR = 60 * 60 * 1000

function report(id: string, title: string, createdAgoHours: number): ModerationReport {
  const created = Date.now() - createdAgoHours * HOUR
  return {
    _id: id,
    targetType: 'post',
    targetId: `post-${id}`,
    type: 'scam',
    reasonLabel: 'Scam/Fraud',
    description: 'Asks for a deposit first',
    status: 'open',
    reporter: { _id: 'u9', name: 'Ray Reporter' },
    target: {
      post: {
        _id: `post-${id}`,
        jobID: `post-${id}`,
        userID: 'o1',
        title,
        location: 'Springfield',
        jobStartEnd: '',
        salary: '',
        paymentType: [],
        contact: null,
        infos: '',
        displayLocation: true,
        displayContact: false,
        jobPicture: null,
        category: 'Moving',
        isOnline: true,
        expirationDate: null,
        authorizedUsers: [],
        createdAt: new Date(created).toISOString(),
        updatedAt: new Date(created).toISOString(),
      },
      takenDown: false,
    },
    openReportsOnTarget: 1,
    createdAt: new Date(created).toISOString(),
    ageHours: Math.floor(createdAgoHours),
    reviewDueAt: new Date(created + 24 * HOUR).toISOString(),
    overdue: createdAgoHours > 24,
    closedAt: null,
    closedBy: null,
    action: null,
  }
}

/** A reported message with the two messages around it. */
function messageReport(id: string, createdAgoHours: number): ModerationReport {
  const base = report(id, 'unused', createdAgoHours)
  const at = Date.parse(base.createdAt)
  const sent = (minutesBefore: number) => new Date(at - minutesBefore * 60_000).toISOString()
  return {
    ...base,
    targetType: 'message',
    targetId: `m-${id}`,
    description: 'Wants gift cards',
    target: {
      message: {
        _id: `m-${id}`,
        conversationId: 'c1',
        sender: { _id: 's1', name: 'Sam Sender' },
        excerpt: [
          {
            _id: 'm-before',
            senderName: 'Ray Reporter',
            text: 'Is the job still open?',
            sentAt: sent(3),
            reported: false,
          },
          {
            _id: `m-${id}`,
            senderName: 'Sam Sender',
            text: 'Pay me in gift cards first',
            sentAt: sent(2),
            reported: true,
          },
          {
            _id: 'm-after',
            senderName: 'Ray Reporter',
            text: 'No thanks',
            sentAt: sent(1),
            reported: false,
          },
        ],
      },
      takenDown: false,
    },
  }
}

const queue = (reports: ModerationReport[]): ModerationQueue => ({
  reports,
  pagination: { page: 1, totalPages: 1, total: reports.length },
  reviewWithinHours: 24,
  overdue: reports.filter((r) => r.overdue).length,
})

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

function renderPage(handler: Parameters<typeof stubFetch>[0]) {
  fetchStub = stubFetch(handler)
  const store = createStore()
  signIn(store, { ...sampleUser, roles: ['2000', '2001'] })
  return renderRoutes([{ path: '/m', element: <ModerationPage /> }], { at: '/m', store })
}

describe('ModerationPage', () => {
  it('shows each open report with its reason, reporter and time against the 24 hours', async () => {
    renderPage(() =>
      jsonResponse(
        200,
        queue([report('r1', 'Cheap iPhones', 26.5), report('r2', 'Move a piano', 20.5)]),
      ),
    )
    const items = await screen.findAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Cheap iPhones')
    expect(items[0]).toHaveTextContent('overdue by 2 h')
    expect(items[0]).toHaveTextContent('Ray Reporter 26 h ago')
    expect(items[0]).toHaveTextContent('Asks for a deposit first')
    expect(items[1]).toHaveTextContent('3 h left')
  })

  it('Take down asks first, then closes the report and reloads the queue', async () => {
    const user = userEvent.setup()
    const patches: unknown[] = []
    let reports = [report('r1', 'Cheap iPhones', 2)]
    renderPage(async (_url, req) => {
      if (req.method === 'PATCH') {
        patches.push(await req.json())
        reports = []
        return jsonResponse(200, {})
      }
      return jsonResponse(200, queue(reports))
    })
    await user.click(await screen.findByRole('button', { name: 'Take down' }))
    const dialog = screen.getByRole('dialog', { name: 'Take down' })
    expect(dialog).toHaveTextContent('Take down "Cheap iPhones"?')
    expect(patches).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Take down' }))
    await waitFor(() => expect(patches).toEqual([{ action: 'take-down' }]))
    expect(
      await screen.findByText('No open reports. Everything has been reviewed.'),
    ).toBeInTheDocument()
  })

  it('Dismiss closes the report; a report already closed shows the server message', async () => {
    renderPage((_url, req) =>
      req.method === 'PATCH'
        ? jsonResponse(409, { message: 'This report has already been closed' })
        : jsonResponse(200, queue([report('r1', 'Cheap iPhones', 2)])),
    )
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Dismiss' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This report has already been closed',
    )
  })

  it('shows a reported message as a small thread with the reported message highlighted', async () => {
    renderPage(() => jsonResponse(200, queue([messageReport('r1', 2)])))
    const thread = await screen.findByRole('list', {
      name: 'Conversation around the reported message',
    })
    const messages = within(thread).getAllByRole('listitem')
    expect(messages.map((message) => message.textContent)).toEqual([
      expect.stringContaining('Is the job still open?'),
      expect.stringContaining('Pay me in gift cards first'),
      expect.stringContaining('No thanks'),
    ])
    expect(messages[1]).toHaveAttribute('aria-current', 'true')
    expect(messages[1]).toHaveClass('moderation-excerpt-reported')
    expect(messages[1]).toHaveTextContent('Sam Sender')
    expect(within(messages[1]!).getByText('Reported message')).toBeInTheDocument()
    expect(messages[0]).toHaveTextContent('Ray Reporter')
    expect(messages[0]).not.toHaveAttribute('aria-current')
    expect(within(messages[0]!).queryByText('Reported message')).toBeNull()
    const item = thread.closest('.moderation-report')
    expect(item).toHaveTextContent('From Sam Sender')
    expect(item).toHaveTextContent('Wants gift cards')
    expect(item).toHaveTextContent('Ray Reporter')
  })

  it('takes a reported message down after saying what happens to it, or dismisses it', async () => {
    const user = userEvent.setup()
    const patches: Array<{ url: string; body: unknown }> = []
    let reports = [messageReport('r1', 2), messageReport('r2', 1)]
    renderPage(async (url, req) => {
      if (req.method === 'PATCH') {
        const id = url.split('/').at(-1) ?? ''
        patches.push({ url, body: await req.json() })
        reports = reports.filter((entry) => entry._id !== id)
        return jsonResponse(200, { ...messageReport(id, 1), status: 'closed' })
      }
      return jsonResponse(200, queue(reports))
    })
    const [first] = await screen.findAllByRole('button', { name: 'Take down' })
    await user.click(first!)
    const dialog = screen.getByRole('dialog', { name: 'Take down' })
    expect(dialog).toHaveTextContent(
      'Take down the message from Sam Sender? It will be hidden from both people in the conversation, its sender will be told, and every open report on it will be closed.',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Take down' }))
    await waitFor(() =>
      expect(patches).toEqual([{ url: '/api/reports/r1', body: { action: 'take-down' } }]),
    )
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Dismiss' })).toHaveLength(1))
    await user.click(screen.getByRole('button', { name: 'Dismiss' }))
    await waitFor(() =>
      expect(patches.at(-1)).toEqual({ url: '/api/reports/r2', body: { action: 'dismiss' } }),
    )
    expect(
      await screen.findByText('No open reports. Everything has been reviewed.'),
    ).toBeInTheDocument()
  })

  it('a load failure shows the error state', async () => {
    renderPage(() =>
      jsonResponse(403, { message: 'Only administrators and editors can review reports' }),
    )
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the reports.')
  })
})
