import { Area, AreaChart, Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts'
import type { DailyAnalytics } from './analytics-api'

const CHART_WIDTH = 640
const CHART_HEIGHT = 220

/** "2026-11-25" as "25 Nov", for the axis. */
const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  })

/**
 * The charts of the Analytics screen. recharts is imported here only, and this
 * file only by the lazily loaded AnalyticsPage: the home route never loads it (the bundle
 * budget test, tests/system/src/web-bundle-budget.test.ts). Each chart is decoration for
 * sighted readers (aria-hidden, and without recharts' keyboard layer, so nothing hidden takes
 * focus); its figures are in a caption and a visually hidden table.
 */
export function AnalyticsCharts({ report }: { report: DailyAnalytics }) {
  const period = `from ${report.from} to ${report.to}`
  return (
    <>
      <section className="analytics-chart" aria-labelledby="analytics-views-title">
        <h2 id="analytics-views-title">Page views per day</h2>
        <p>{`${report.totals.pageViews} page views ${period}`}</p>
        <div className="analytics-chart-frame" aria-hidden="true">
          <AreaChart
            width={CHART_WIDTH}
            height={CHART_HEIGHT}
            data={report.days}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" tickFormatter={shortDate} minTickGap={24} />
            <YAxis allowDecimals={false} width={40} />
            <Tooltip labelFormatter={(label) => shortDate(String(label))} />
            <Area
              type="monotone"
              dataKey="pageViews"
              name="Page views"
              stroke="var(--color-primary)"
              fill="var(--color-primary)"
              fillOpacity={0.2}
              isAnimationActive={false}
            />
          </AreaChart>
        </div>
        <table className="visually-hidden">
          <caption>{`Page views per day ${period}`}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Page views</th>
              <th scope="col">Mobile</th>
              <th scope="col">Desktop</th>
              <th scope="col">Client errors</th>
            </tr>
          </thead>
          <tbody>
            {report.days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td>{day.pageViews}</td>
                <td>{day.mobile}</td>
                <td>{day.desktop}</td>
                <td>{day.clientErrors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="analytics-chart" aria-labelledby="analytics-devices-title">
        <h2 id="analytics-devices-title">Device types</h2>
        <div className="analytics-chart-frame" aria-hidden="true">
          <BarChart
            width={CHART_WIDTH / 2}
            height={160}
            data={report.devices}
            layout="vertical"
            accessibilityLayer={false}
          >
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="deviceType" width={80} />
            <Bar
              dataKey="count"
              name="Page views"
              fill="var(--color-primary)"
              isAnimationActive={false}
            />
          </BarChart>
        </div>
        <table className="visually-hidden">
          <caption>{`Page views per device type ${period}`}</caption>
          <thead>
            <tr>
              <th scope="col">Device type</th>
              <th scope="col">Page views</th>
            </tr>
          </thead>
          <tbody>
            {report.devices.map((row) => (
              <tr key={row.deviceType}>
                <th scope="row">{row.deviceType}</th>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  )
}
