import { errorMessage } from '@/lib/api'
import { useGetDailyAnalyticsQuery } from './analytics-api'
import { AnalyticsCharts } from './AnalyticsCharts'
import { RankedTable } from './RankedTable'
import './analytics.css'

// Our own copy: the product names the screen, not its texts.
export const PERIOD_DAYS = 30
const LOAD_FAILED = 'Failed to load the analytics. Please try again later.'
const NOTHING_YET = 'No analytics in the last 30 days yet.'

/**
 * Settings › Analytics: the web app's own use over the last 30 days, for
 * administrators and editors (the route's RequireRole; the service answers 403 to others).
 */
export default function AnalyticsPage() {
  const { data, isLoading, isError, error, refetch } = useGetDailyAnalyticsQuery({
    days: PERIOD_DAYS,
  })

  return (
    <div className="analytics-page">
      <h1>Analytics</h1>
      <p className="muted">The last 30 days, by UTC day.</p>
      {isLoading && (
        <p role="status" className="page-loading">
          Loading...
        </p>
      )}
      {isError && (
        <div role="alert">
          <p>{errorMessage(error, LOAD_FAILED)}</p>
          <button type="button" className="btn" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      )}
      {data && data.days.every((day) => day.pageViews === 0 && day.clientErrors === 0) && (
        <p className="muted">{NOTHING_YET}</p>
      )}
      {data && (
        <>
          <dl className="analytics-totals">
            <div>
              <dt>Page views</dt>
              <dd>{data.totals.pageViews}</dd>
            </div>
            <div>
              <dt>Client errors</dt>
              <dd>{data.totals.clientErrors}</dd>
            </div>
            <div>
              <dt>Help pages viewed</dt>
              <dd>{data.totals.helpViews}</dd>
            </div>
            <div>
              <dt>Support messages sent</dt>
              <dd>{data.totals.supportCreated}</dd>
            </div>
            <div>
              <dt>Support messages failed</dt>
              <dd>{data.totals.supportFailed}</dd>
            </div>
            <div>
              <dt>Worker profiles saved</dt>
              <dd>{data.totals.profilesSaved}</dd>
            </div>
          </dl>
          <AnalyticsCharts report={data} />
          <RankedTable
            title="Top routes"
            label="Route"
            empty="No page views yet."
            rows={data.topRoutes.map((row) => ({ name: row.route, count: row.count }))}
          />
          <RankedTable
            title="Top errors"
            label="Message"
            empty="No client errors."
            rows={data.topErrors.map((row) => ({ name: row.message, count: row.count }))}
          />
          <RankedTable
            title="Help pages"
            label="Page"
            empty="No help pages viewed."
            rows={data.helpPages.map((row) => ({ name: row.path, count: row.count }))}
          />
          <RankedTable
            title="Profile completion"
            label="Fields filled"
            empty="No worker profiles saved."
            rows={data.profileCompletion
              .filter((row) => row.count > 0)
              .map((row) => ({ name: `${row.filled} of ${row.of}`, count: row.count }))}
          />
        </>
      )}
    </div>
  )
}
