import { screen, within } from '@testing-library/react'
import StatsPage from '@/features/stats/StatsPage'
import { renderPage } from '@/test/settings-helpers'
import { jsonResponse, sampleUser, stubFetch } from '@/test/helpers'

// The page's own logic is tested here; recharts draws (ActivityCharts.test.tsx renders the
// real one) and takes seconds to load in jsdom, which these tests need not wait for.
jest.mock('recharts', () => ({
  LineChart: ({ children }: { children: React.ReactNode }) => (
    <svg data-testid="sparkline">{children}</svg>
  ),
  Line: () => null,
  YAxis: () => null,
}))

/** 30 days ending on the 30th of November, zero but where `figures` says. */
function daily(figures: Record<string, Record<string, number>> = {}) {
  return Array.from({ length: 30 }, (_, index) => {
    const date = `2026-11-${String(index + 1).padStart(2, '0')}`
    return {
      date,
      received: 0,
      sent: 0,
      receivedAccepted: 0,
      sentAccepted: 0,
      ...figures[date],
    }
  })
}

const jobsStats = {
  posts: { total: 12, online: 9, offline: 3 },
  requestsReceived: { total: 47, pending: 7, accepted: 30, rejected: 10 },
  requestsSent: { total: 4, pending: 1, accepted: 2, rejected: 1 },
  acceptanceRate: 0.75,
  daily: daily({
    '2026-11-03': { received: 4, receivedAccepted: 2 },
    '2026-11-29': { received: 7, sent: 1, sentAccepted: 1 },
  }),
}
const favoritesStats = { postFavoritesReceived: 8, peopleFavoritesReceived: 2 }
const peopleStats = {
  peopleRequestsSent: { total: 5, pending: 1, accepted: 3, rejected: 1 },
  peopleRequestsReceived: { total: 3, pending: 3, accepted: 0, rejected: 0 },
  rating: { average: 4.3, count: 6 },
  daily: daily({ '2026-11-29': { received: 1, sent: 2 }, '2026-11-30': { receivedAccepted: 1 } }),
}

function answer(path: string, overrides: Record<string, () => Response> = {}) {
  for (const [prefix, respond] of Object.entries(overrides)) {
    if (path.startsWith(prefix)) return respond()
  }
  if (path === `/api/jobs/stats/${sampleUser._id}`) return jsonResponse(200, jobsStats)
  if (path === `/api/favorites/stats/${sampleUser._id}`) return jsonResponse(200, favoritesStats)
  if (path === `/api/people/stats/${sampleUser._id}`) return jsonResponse(200, peopleStats)
  return jsonResponse(404, { message: 'Not found' })
}

const figure = (section: HTMLElement, label: string) =>
  within(section).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('stats page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('shows the real figures of the three services, the caller’s own', async () => {
    fetchStub = stubFetch((path) => answer(path))
    renderPage(<StatsPage />)
    expect(screen.getByRole('heading', { name: 'Stats', level: 1 })).toBeInTheDocument()
    const posts = await screen.findByRole('region', { name: 'My posts' })
    expect(await within(posts).findByText('Online')).toBeInTheDocument()
    expect(figure(posts, 'Total')).toBe('12')
    expect(figure(posts, 'Online')).toBe('9')
    expect(figure(posts, 'Offline')).toBe('3')
    const received = screen.getByRole('region', { name: 'Requests on my posts' })
    expect(figure(received, 'Total')).toBe('47')
    expect(figure(received, 'Declined')).toBe('10')
    expect(figure(received, 'Acceptance rate')).toBe('75%')
    const rating = await screen.findByRole('region', { name: 'My rating' })
    expect(await within(rating).findByText('4.3 / 5')).toBeInTheDocument()
    expect(figure(rating, 'Ratings')).toBe('6')
    const favorites = await screen.findByRole('region', { name: 'Favorites' })
    expect(await within(favorites).findByText('8')).toBeInTheDocument()
    expect(
      await screen.findByRole('img', { name: /Overview: Posts 12, Requests received 47/ }),
    ).toBeInTheDocument()
    const asked = fetchStub.spy.mock.calls.map(
      ([input]) => new URL((input as Request).url).pathname,
    )
    expect(asked.sort()).toEqual([
      `/api/favorites/stats/${sampleUser._id}`,
      `/api/jobs/stats/${sampleUser._id}`,
      `/api/people/stats/${sampleUser._id}`,
    ])
  })

  it('shows the agreed amounts of accepted offers only once there are some', async () => {
    fetchStub = stubFetch((path) =>
      answer(path, {
        '/api/jobs/': () =>
          jsonResponse(200, {
            ...jobsStats,
            agreed: {
              received: { requests: 3, fixedTotal: 245.5, perHourRequests: 1 },
              sent: { requests: 1, fixedTotal: 80, perHourRequests: 0 },
            },
          }),
      }),
    )
    renderPage(<StatsPage />)
    const agreed = await screen.findByRole('region', { name: 'Agreed amounts' })
    expect(figure(agreed, 'On my posts')).toBe('$245.50')
    expect(figure(agreed, 'Per hour on my posts')).toBe('1')
    expect(figure(agreed, 'As a worker')).toBe('$80')
  })

  it('has no agreed amounts section without an agreed offer', async () => {
    fetchStub = stubFetch((path) => answer(path))
    renderPage(<StatsPage />)
    await screen.findByRole('region', { name: 'My posts' })
    expect(screen.queryByRole('region', { name: 'Agreed amounts' })).toBeNull()
  })

  it('shows the last 30 days of requests as small charts, each with its figures in words and a table', async () => {
    fetchStub = stubFetch((path) => answer(path))
    renderPage(<StatsPage />)
    const recent = await screen.findByRole('region', { name: 'Last 30 days' })
    // Post requests (jobs) and people requests added up.
    expect(
      await within(recent).findByText('12 requests received in the last 30 days'),
    ).toBeInTheDocument()
    expect(within(recent).getByText('3 requests sent in the last 30 days')).toBeInTheDocument()
    expect(
      within(recent).getByText('3 requests accepted by you in the last 30 days'),
    ).toBeInTheDocument()
    expect(
      within(recent).getByText('1 of your requests accepted in the last 30 days'),
    ).toBeInTheDocument()
    for (const title of [
      'Requests received',
      'Requests sent',
      'Requests I accepted',
      'My requests accepted',
    ]) {
      expect(within(recent).getByRole('heading', { name: title, level: 3 })).toBeInTheDocument()
    }
    // The charts themselves are for the eye; the table carries every day.
    expect(recent.querySelectorAll('[aria-hidden="true"] svg')).toHaveLength(4)
    const table = within(recent).getByRole('table', {
      name: 'Your requests per day in the last 30 days',
    })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(31)
    const day29 = within(table).getByRole('rowheader', { name: '2026-11-29' }).closest('tr')!
    expect(
      within(day29)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['8', '3', '0', '1'])
  })

  it('keeps the totals when the series cannot be loaded', async () => {
    fetchStub = stubFetch((path) =>
      answer(path, { '/api/people/': () => jsonResponse(500, { message: 'Down' }) }),
    )
    renderPage(<StatsPage />)
    const recent = await screen.findByRole('region', { name: 'Last 30 days' })
    expect(
      await within(recent).findByText('Could not load your requests over time.'),
    ).toBeInTheDocument()
    const posts = screen.getByRole('region', { name: 'My posts' })
    expect(await within(posts).findByText('12')).toBeInTheDocument()
  })

  it('links the X and Facebook share pages with the site URL and the figures', async () => {
    fetchStub = stubFetch((path) => answer(path))
    renderPage(<StatsPage />)
    await screen.findByRole('img', { name: /Overview/ })
    const site = encodeURIComponent(window.location.origin)
    const x = screen.getByRole('link', { name: 'Share on X' })
    expect(x.getAttribute('href')).toBe(
      `https://x.com/intent/tweet?text=${encodeURIComponent(
        'I have 12 posts and 50 requests on the marketplace.',
      )}&url=${site}`,
    )
    expect(x).toHaveAttribute('target', '_blank')
    expect(x).toHaveAttribute('rel', 'noopener noreferrer')
    expect(screen.getByRole('link', { name: 'Share on Facebook' })).toHaveAttribute(
      'href',
      `https://www.facebook.com/sharer/sharer.php?u=${site}`,
    )
  })

  it('shows "Loading..." first, and an error only where a service failed', async () => {
    fetchStub = stubFetch((path) =>
      answer(path, { '/api/favorites/': () => jsonResponse(500, { message: 'Down' }) }),
    )
    renderPage(<StatsPage />)
    expect(screen.getAllByText('Loading...').length).toBeGreaterThan(0)
    // The shared client tries a 500 three more times first (about 0.7 s of backoff).
    expect(
      await screen.findByText('Could not load your favorite figures.', {}, { timeout: 5000 }),
    ).toBeInTheDocument()
    const posts = screen.getByRole('region', { name: 'My posts' })
    expect(await within(posts).findByText('12')).toBeInTheDocument()
    expect(screen.queryByRole('img', { name: /Overview/ })).not.toBeInTheDocument()
  })

  it('says when nobody answered yet and when the user is not rated yet', async () => {
    fetchStub = stubFetch((path) =>
      answer(path, {
        '/api/jobs/': () => jsonResponse(200, { ...jobsStats, acceptanceRate: null }),
        '/api/people/': () =>
          jsonResponse(200, { ...peopleStats, rating: { average: null, count: 0 } }),
      }),
    )
    renderPage(<StatsPage />)
    expect(await screen.findByText('No answers yet')).toBeInTheDocument()
    expect(await screen.findByText('Not rated yet')).toBeInTheDocument()
  })
})
