import type { JobsRequestCounts, PeopleStatsView } from '@marketplace/contracts/api'
import { formatOfferAmount } from '@marketplace/contracts/marketplace'
import { useAppSelector } from '@/app/hooks'
import { selectCurrentUser } from '@/lib/auth-slice'
import { ActivityCharts, combineDays } from '@/features/stats/ActivityCharts'
import {
  useGetFavoritesStatsQuery,
  useGetJobsStatsQuery,
  useGetPeopleStatsQuery,
} from '@/features/stats/stats-api'
import '@/components/ui/list-page.css'
import './stats.css'

interface Bar {
  label: string
  value: number
}

/** A horizontal bar chart in plain SVG: one bar per figure, scaled to the largest. */
function BarChart({ title, bars }: { title: string; bars: Bar[] }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value))
  const rowHeight = 28
  const labelWidth = 150
  const chartWidth = 240
  const height = bars.length * rowHeight
  return (
    <svg
      className="stats-chart"
      role="img"
      aria-label={`${title}: ${bars.map((bar) => `${bar.label} ${bar.value}`).join(', ')}`}
      viewBox={`0 0 ${labelWidth + chartWidth + 40} ${height}`}
      width="100%"
      preserveAspectRatio="xMinYMin meet"
    >
      {bars.map((bar, index) => {
        const y = index * rowHeight
        const width = (bar.value / max) * chartWidth
        return (
          <g key={bar.label}>
            <text x={0} y={y + 18} className="stats-chart-label">
              {bar.label}
            </text>
            <rect
              x={labelWidth}
              y={y + 6}
              width={Math.max(width, bar.value > 0 ? 2 : 0)}
              height={16}
              rx={3}
              className="stats-chart-bar"
            />
            <text x={labelWidth + width + 6} y={y + 18} className="stats-chart-value">
              {bar.value}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

/** A fixed total in dollars, cents only when there are some. */
const money = (amount: number) =>
  formatOfferAmount({ amount: Math.round(amount * 100) / 100, unit: 'fixed' })

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="stats-figure">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

/** Requests of one kind by status, as the jobs and the people services count them. */
type StatusCounts = JobsRequestCounts | PeopleStatsView['peopleRequestsSent']

function StatusFigures({ counts }: { counts: StatusCounts }) {
  return (
    <>
      <Figure label="Total" value={counts.total} />
      <Figure label="Pending" value={counts.pending} />
      <Figure label="Accepted" value={counts.accepted} />
      <Figure label="Declined" value={counts.rejected} />
    </>
  )
}

function Section({
  title,
  state,
  errorText,
  children,
}: {
  title: string
  state: { isLoading: boolean; isError: boolean }
  errorText: string
  children: React.ReactNode
}) {
  return (
    <section className="card stats-section" aria-label={title}>
      <div className="card-body">
        <h2>{title}</h2>
        {state.isLoading ? (
          <p className="page-loading" role="status">
            Loading...
          </p>
        ) : state.isError ? (
          <p className="error-state" role="alert">
            {errorText}
          </p>
        ) : (
          children
        )}
      </div>
    </section>
  )
}

const percent = (rate: number | null) =>
  rate === null ? 'No answers yet' : `${Math.round(rate * 100)}%`

/** Sharing links of X and Facebook; they open the networks' own share pages in a new tab. */
function ShareButtons({ text }: { text: string }) {
  const siteUrl = window.location.origin
  const x = `https://x.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(siteUrl)}`
  const facebook = `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(siteUrl)}`
  return (
    <div className="stats-share" aria-label="Share">
      <a className="btn btn-small" href={x} target="_blank" rel="noopener noreferrer">
        Share on X
      </a>
      <a className="btn btn-small" href={facebook} target="_blank" rel="noopener noreferrer">
        Share on Facebook
      </a>
    </div>
  )
}

/** /settings-employer-stats, with the real figures of the three services. */
export default function StatsPage() {
  const user = useAppSelector(selectCurrentUser)
  const userId = user?._id ?? ''
  // Others' actions change these figures: ask again each time the page opens.
  const options = { skip: !user, refetchOnMountOrArgChange: true }
  const jobs = useGetJobsStatsQuery(userId, options)
  const favorites = useGetFavoritesStatsQuery(userId, options)
  const people = useGetPeopleStatsQuery(userId, options)

  if (!user) {
    return (
      <p className="error-state" role="alert">
        Please log in to view your stats.
      </p>
    )
  }

  const postsCount = jobs.data?.posts.total ?? 0
  const requestsCount =
    (jobs.data?.requestsReceived.total ?? 0) + (people.data?.peopleRequestsReceived.total ?? 0)
  const shareText = `I have ${postsCount} ${postsCount === 1 ? 'post' : 'posts'} and ${requestsCount} ${requestsCount === 1 ? 'request' : 'requests'} on the marketplace.`

  return (
    <section className="settings-list-page stats-page" aria-labelledby="stats-title">
      <header className="settings-list-header">
        <h1 id="stats-title">Stats</h1>
        <ShareButtons text={shareText} />
      </header>

      {jobs.data && people.data && favorites.data && (
        <BarChart
          title="Overview"
          bars={[
            { label: 'Posts', value: jobs.data.posts.total },
            { label: 'Requests received', value: jobs.data.requestsReceived.total },
            { label: 'Requests sent', value: jobs.data.requestsSent.total },
            { label: 'People I requested', value: people.data.peopleRequestsSent.total },
            { label: 'People requests', value: people.data.peopleRequestsReceived.total },
            {
              label: 'Times saved',
              value: favorites.data.postFavoritesReceived + favorites.data.peopleFavoritesReceived,
            },
          ]}
        />
      )}

      <Section
        title="Last 30 days"
        state={{
          isLoading: jobs.isLoading || people.isLoading,
          isError: jobs.isError || people.isError,
        }}
        errorText="Could not load your requests over time."
      >
        {jobs.data && people.data && (
          // Post requests and people requests together, as the overview's totals would be.
          <ActivityCharts days={combineDays(jobs.data.daily, people.data.daily)} />
        )}
      </Section>

      <div className="stats-grid">
        <Section title="My posts" state={jobs} errorText="Could not load your post figures.">
          {jobs.data && (
            <dl className="stats-figures">
              <Figure label="Total" value={jobs.data.posts.total} />
              <Figure label="Online" value={jobs.data.posts.online} />
              <Figure label="Offline" value={jobs.data.posts.offline} />
            </dl>
          )}
        </Section>
        <Section
          title="Requests on my posts"
          state={jobs}
          errorText="Could not load your request figures."
        >
          {jobs.data && (
            <dl className="stats-figures">
              <StatusFigures counts={jobs.data.requestsReceived} />
              <Figure label="Acceptance rate" value={percent(jobs.data.acceptanceRate)} />
            </dl>
          )}
        </Section>
        <Section
          title="Posts I requested"
          state={jobs}
          errorText="Could not load your request figures."
        >
          {jobs.data && (
            <dl className="stats-figures">
              <StatusFigures counts={jobs.data.requestsSent} />
            </dl>
          )}
        </Section>
        {jobs.data?.agreed && (
          // Offers agreed on accepted requests (docs/post-requests.md): fixed amounts summed,
          // per-hour ones counted (the hours are not known).
          <Section
            title="Agreed amounts"
            state={jobs}
            errorText="Could not load your agreed amounts."
          >
            <dl className="stats-figures">
              <Figure label="On my posts" value={money(jobs.data.agreed.received.fixedTotal)} />
              <Figure
                label="Per hour on my posts"
                value={jobs.data.agreed.received.perHourRequests}
              />
              <Figure label="As a worker" value={money(jobs.data.agreed.sent.fixedTotal)} />
              <Figure label="Per hour as a worker" value={jobs.data.agreed.sent.perHourRequests} />
            </dl>
          </Section>
        )}
        <Section
          title="People I requested"
          state={people}
          errorText="Could not load your people request figures."
        >
          {people.data && (
            <dl className="stats-figures">
              <StatusFigures counts={people.data.peopleRequestsSent} />
            </dl>
          )}
        </Section>
        <Section
          title="People requested me"
          state={people}
          errorText="Could not load your people request figures."
        >
          {people.data && (
            <dl className="stats-figures">
              <StatusFigures counts={people.data.peopleRequestsReceived} />
            </dl>
          )}
        </Section>
        <Section title="My rating" state={people} errorText="Could not load your rating.">
          {people.data && (
            <dl className="stats-figures">
              <Figure
                label="Average"
                value={
                  people.data.rating.average === null
                    ? 'Not rated yet'
                    : `${people.data.rating.average.toFixed(1)} / 5`
                }
              />
              <Figure label="Ratings" value={people.data.rating.count} />
            </dl>
          )}
        </Section>
        <Section
          title="Favorites"
          state={favorites}
          errorText="Could not load your favorite figures."
        >
          {favorites.data && (
            <dl className="stats-figures">
              <Figure label="My posts saved" value={favorites.data.postFavoritesReceived} />
              <Figure label="Me saved" value={favorites.data.peopleFavoritesReceived} />
            </dl>
          )}
        </Section>
      </div>
    </section>
  )
}
