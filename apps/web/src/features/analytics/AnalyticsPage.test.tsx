import { screen, within } from '@testing-library/react'
import AnalyticsPage from '@/features/analytics/AnalyticsPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'
import type { DailyAnalytics } from './analytics-api'

// The page's own logic is tested here; recharts draws in a real browser and takes seconds to
// load in jsdom, which these tests need not wait for. The figures are in the tables anyway.
jest.mock('recharts', () => {
  const Chart = ({ children }: { children?: React.ReactNode }) => (
    <svg data-testid="chart">{children}</svg>
  )
  const Nothing = () => null
  return {
    AreaChart: Chart,
    BarChart: Chart,
    Area: Nothing,
    Bar: Nothing,
    CartesianGrid: Nothing,
    Tooltip: Nothing,
    XAxis: Nothing,
    YAxis: Nothing,
  }
})

const zeroDay = (date: string) => ({
  date,
  pageViews: 0,
  mobile: 0,
  desktop: 0,
  clientErrors: 0,
  helpViews: 0,
  supportCreated: 0,
  supportFailed: 0,
  profilesSaved: 0,
})

function report(overrides: Partial<DailyAnalytics> = {}): DailyAnalytics {
  const days = Array.from({ length: 30 }, (_, index) =>
    zeroDay(`2026-11-${String(index + 1).padStart(2, '0')}`),
  )
  days[29] = { ...days[29]!, pageViews: 12, mobile: 5, desktop: 7, clientErrors: 2, helpViews: 1 }
  return {
    from: '2026-11-01',
    to: '2026-11-30',
    days,
    totals: {
      ...zeroDay(''),
      pageViews: 12,
      mobile: 5,
      desktop: 7,
      clientErrors: 2,
      helpViews: 1,
      supportCreated: 3,
      supportFailed: 1,
      profilesSaved: 2,
    },
    devices: [
      { deviceType: 'desktop', count: 7 },
      { deviceType: 'mobile', count: 5 },
    ],
    topRoutes: [
      { route: '/', count: 9 },
      { route: '/posts/:id', count: 3 },
    ],
    topErrors: [{ message: 'Cannot read properties of undefined (reading id)', count: 2 }],
    helpPages: [{ path: '/help', count: 1 }],
    profileCompletion: [0, 1, 2, 3, 4, 5, 6].map((filled) => ({
      filled,
      of: 6,
      count: filled === 6 ? 2 : 0,
    })),
    ...overrides,
  }
}

describe('analytics page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('asks for the last 30 days and shows the totals, charts with their tables, and the top lists', async () => {
    fetchStub = stubFetch((path) =>
      path === '/api/analytics/daily' ? jsonResponse(200, report()) : jsonResponse(404, {}),
    )
    renderPage(<AnalyticsPage />)
    expect(screen.getByRole('heading', { name: 'Analytics', level: 1 })).toBeInTheDocument()
    expect(
      await screen.findByText('12 page views from 2026-11-01 to 2026-11-30'),
    ).toBeInTheDocument()
    expect(screen.getAllByTestId('chart')).toHaveLength(2)

    const views = screen.getByRole('table', {
      name: 'Page views per day from 2026-11-01 to 2026-11-30',
    })
    expect(views.querySelectorAll('tbody tr')).toHaveLength(30)
    const lastDay = within(views).getByRole('rowheader', { name: '2026-11-30' }).closest('tr')!
    expect(
      within(lastDay)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['12', '5', '7', '2'])
    const devices = screen.getByRole('table', { name: /Page views per device type/ })
    expect(
      within(devices).getByRole('rowheader', { name: 'mobile' }).nextSibling?.textContent,
    ).toBe('5')

    const routes = screen.getByRole('region', { name: 'Top routes' })
    expect(
      within(routes)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['/', '/posts/:id'])
    const errors = screen.getByRole('region', { name: 'Top errors' })
    expect(
      within(errors).getByText('Cannot read properties of undefined (reading id)'),
    ).toBeInTheDocument()
    const completion = screen.getByRole('region', { name: 'Profile completion' })
    expect(
      within(completion)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['6 of 6'])
    expect(screen.queryByText('No analytics in the last 30 days yet.')).toBeNull()

    const asked = fetchStub.spy.mock.calls.map(([input]) => new URL((input as Request).url))
    expect(asked.map((url) => `${url.pathname}${url.search}`)).toEqual([
      '/api/analytics/daily?days=30',
    ])
    // Role queries over a 30-row table are slow in jsdom on a busy machine.
  }, 20_000)

  it('says so when the period has no events', async () => {
    fetchStub = stubFetch(() =>
      jsonResponse(
        200,
        report({
          days: report().days.map((day) => zeroDay(day.date)),
          topRoutes: [],
          topErrors: [],
          devices: [],
          helpPages: [],
        }),
      ),
    )
    renderPage(<AnalyticsPage />)
    expect(await screen.findByText('No analytics in the last 30 days yet.')).toBeInTheDocument()
    expect(screen.getByText('No client errors.')).toBeInTheDocument()
  })

  it('shows the server’s message when the figures cannot be loaded, and tries again on request', async () => {
    let calls = 0
    fetchStub = stubFetch(() => {
      calls += 1
      return calls === 1
        ? jsonResponse(403, {
            message: 'Only administrators and editors can see analytics',
            code: 'ANALYSTS_ONLY',
          })
        : jsonResponse(200, report())
    })
    renderPage(<AnalyticsPage />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Only administrators and editors can see analytics')
    within(alert).getByRole('button', { name: 'Try again' }).click()
    expect(
      await screen.findByText('12 page views from 2026-11-01 to 2026-11-30'),
    ).toBeInTheDocument()
  })

  it('shows Loading while the figures are on their way', async () => {
    fetchStub = stubFetch(() => new Promise<Response>(() => undefined))
    renderPage(<AnalyticsPage />)
    expect(await screen.findByRole('status')).toHaveTextContent('Loading...')
  })
})
