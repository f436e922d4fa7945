import { render, screen, within } from '@testing-library/react'
import { ActivityCharts, combineDays } from '@/features/stats/ActivityCharts'

const day = (date: string, figures: Partial<Record<string, number>> = {}) => ({
  date,
  received: 0,
  sent: 0,
  receivedAccepted: 0,
  sentAccepted: 0,
  ...figures,
})

// recharts takes seconds to load in jsdom on a busy machine.
jest.setTimeout(30_000)

describe('request activity charts', () => {
  it('adds up the services’ days, date by date, oldest first', () => {
    expect(
      combineDays(
        [day('2026-11-02', { received: 1 }), day('2026-11-01', { sent: 2 })],
        [day('2026-11-02', { received: 3, sentAccepted: 1 })],
      ),
    ).toEqual([day('2026-11-01', { sent: 2 }), day('2026-11-02', { received: 4, sentAccepted: 1 })])
  })

  it('draws one line per series with recharts, hidden from assistive technology', () => {
    const days = [day('2026-11-01', { received: 1 }), day('2026-11-02', { received: 3, sent: 1 })]
    const { container } = render(<ActivityCharts days={days} />)
    expect(screen.getByText('4 requests received in the last 2 days')).toBeInTheDocument()
    expect(screen.getByText('1 request sent in the last 2 days')).toBeInTheDocument()
    expect(screen.getByText('0 requests accepted by you in the last 2 days')).toBeInTheDocument()
    const charts = container.querySelectorAll('[aria-hidden="true"] svg.recharts-surface')
    expect(charts).toHaveLength(4)
    for (const chart of charts) {
      expect(chart.querySelector('path.recharts-line-curve')).not.toBeNull()
    }
    const table = screen.getByRole('table', { name: 'Your requests per day in the last 2 days' })
    expect(within(table).getAllByRole('row')).toHaveLength(3)
  })
})
