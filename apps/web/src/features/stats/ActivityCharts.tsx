import { Line, LineChart, YAxis } from 'recharts'
import type { RequestActivityDay } from '@marketplace/contracts/api'

type Field = Exclude<keyof RequestActivityDay, 'date'>

/**
 * The four series of the page (docs/ratings-and-stats.md, "Stats over time"). Acceptances
 * are shown both ways: the requests the user accepted (as a post owner or a worker asked
 * for) and the user's own requests someone accepted, since they answer different questions.
 */
const SERIES: Array<{ field: Field; title: string; summary: (count: number) => string }> = [
  {
    field: 'received',
    title: 'Requests received',
    summary: (count) => `${requests(count)} received`,
  },
  { field: 'sent', title: 'Requests sent', summary: (count) => `${requests(count)} sent` },
  {
    field: 'receivedAccepted',
    title: 'Requests I accepted',
    summary: (count) => `${requests(count)} accepted by you`,
  },
  {
    field: 'sentAccepted',
    title: 'My requests accepted',
    summary: (count) => `${count} of your requests accepted`,
  },
]

const requests = (count: number) => `${count} ${count === 1 ? 'request' : 'requests'}`

/** Each day's figures of the jobs (post requests) and people services, added up. */
export function combineDays(...series: RequestActivityDay[][]): RequestActivityDay[] {
  const byDate = new Map<string, RequestActivityDay>()
  for (const days of series) {
    for (const day of days) {
      const sum = byDate.get(day.date) ?? {
        date: day.date,
        received: 0,
        sent: 0,
        receivedAccepted: 0,
        sentAccepted: 0,
      }
      for (const { field } of SERIES) sum[field] += day[field]
      byDate.set(day.date, sum)
    }
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date))
}

/**
 * Sparkline-size charts of the user's requests per day. The charts are drawn for the eye
 * only (aria-hidden): each has a sentence with its total, and a visually hidden table
 * holds every day's figures for screen readers.
 */
export function ActivityCharts({ days }: { days: RequestActivityDay[] }) {
  const period = `in the last ${days.length} ${days.length === 1 ? 'day' : 'days'}`
  return (
    <>
      <ul className="stats-sparklines">
        {SERIES.map(({ field, title, summary }) => {
          const total = days.reduce((sum, day) => sum + day[field], 0)
          return (
            <li key={field} className="stats-sparkline">
              <h3>{title}</h3>
              <p className="stats-sparkline-total">{`${summary(total)} ${period}`}</p>
              <div aria-hidden="true">
                {/* No keyboard layer: the chart is hidden from assistive technology (the
                    sentence above and the table below say it), so nothing in it may take focus. */}
                <LineChart width={180} height={40} data={days} accessibilityLayer={false}>
                  {/* Zero at the bottom, and a flat line (not the middle) for no requests. */}
                  <YAxis hide domain={[0, (max: number) => Math.max(1, max)]} />
                  <Line
                    type="monotone"
                    dataKey={field}
                    dot={false}
                    isAnimationActive={false}
                    stroke="var(--color-primary)"
                    strokeWidth={2}
                  />
                </LineChart>
              </div>
            </li>
          )
        })}
      </ul>
      <table className="visually-hidden">
        <caption>{`Your requests per day ${period}`}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SERIES.map(({ field, title }) => (
              <th key={field} scope="col">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{day.date}</th>
              {SERIES.map(({ field }) => (
                <td key={field}>{day[field]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}
