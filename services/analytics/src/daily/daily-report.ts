import { Type, type Static } from '@sinclair/typebox'
import { PROFILE_COMPLETION_FIELDS } from '@marketplace/contracts/marketplace'
import { COMPLETION_BUCKETS, OTHER_KEY, dayOf, type DayDocument } from './day-document'
import { unescapeKey } from './field-keys'
import type { DailyRepository } from './daily-repository'

/** Rows in each "top" list of the answer. */
export const TOP_ROWS = 10
export const DAYS_MAX = 400

const Count = Type.Integer({ minimum: 0 })

const DaySchema = Type.Object(
  {
    date: Type.String({
      format: 'date',
      description: 'UTC day, YYYY-MM-DD',
      examples: ['2026-11-25'],
    }),
    pageViews: Count,
    mobile: Type.Integer({ minimum: 0, description: 'Page views on a mobile device (<= 768 px)' }),
    desktop: Type.Integer({ minimum: 0, description: 'Page views on a wider screen' }),
    clientErrors: Count,
    helpViews: Count,
    supportCreated: Type.Integer({ minimum: 0, description: 'Help and contact messages accepted' }),
    supportFailed: Type.Integer({
      minimum: 0,
      description: 'Help and contact messages that failed',
    }),
    profilesSaved: Type.Integer({ minimum: 0, description: 'Worker profiles saved' }),
  },
  { additionalProperties: false },
)

const ranked = <K extends string>(key: K, description: string) =>
  Type.Array(
    Type.Object(
      { [key]: Type.String({ description }), count: Count } as {
        [P in K]: ReturnType<typeof Type.String>
      } & { count: typeof Count },
      { additionalProperties: false },
    ),
    { maxItems: TOP_ROWS },
  )

export const DailyReportSchema = Type.Object(
  {
    from: Type.String({ format: 'date', description: 'First day of the period (UTC)' }),
    to: Type.String({ format: 'date', description: 'Last day of the period: today (UTC)' }),
    days: Type.Array(DaySchema, {
      maxItems: DAYS_MAX,
      description: 'Every day of the period, oldest first; a day without events has zeros',
    }),
    totals: Type.Omit(DaySchema, ['date']),
    devices: Type.Array(
      Type.Object(
        { deviceType: Type.String({ description: 'mobile, desktop or unknown' }), count: Count },
        { additionalProperties: false },
      ),
      { maxItems: 10, description: 'Page views of the period per device type, most first' },
    ),
    topRoutes: ranked(
      'route',
      `A route pattern of the web app (ids as :name); "(not a page of the app)" gathers every other path`,
    ),
    topErrors: Type.Array(
      Type.Object(
        {
          message: Type.String({
            description: `A client error message, numbers and ids replaced, at most 160 characters; "${OTHER_KEY}" gathers the rest`,
          }),
          count: Count,
          sentByBrowser: Type.Optional(
            Type.Literal(true, {
              description:
                'The text is what a browser sent, with no sign-in needed: show it as plain text, never as a link or markup, and do not take it for a statement of the product',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: TOP_ROWS },
    ),
    helpPages: ranked('path', 'A help page (/help or the settings Help & Support)'),
    profileCompletion: Type.Array(
      Type.Object(
        {
          filled: Type.Integer({ minimum: 0, maximum: PROFILE_COMPLETION_FIELDS.length }),
          of: Type.Integer({ minimum: 1 }),
          count: Count,
        },
        { additionalProperties: false },
      ),
      {
        maxItems: COMPLETION_BUCKETS,
        description: 'Worker profiles saved in the period by fields filled (six)',
      },
    ),
  },
  { additionalProperties: false },
)
export type DailyReport = Static<typeof DailyReportSchema>
type Day = Static<typeof DaySchema>

const sum = (counts: Record<string, number> | undefined) =>
  Object.values(counts ?? {}).reduce((total, n) => total + n, 0)

function addAll(into: Map<string, number>, counts: Record<string, number> | undefined) {
  for (const [key, count] of Object.entries(counts ?? {})) {
    const name = unescapeKey(key)
    into.set(name, (into.get(name) ?? 0) + count)
  }
}

function top(counts: Map<string, number>, rows = TOP_ROWS) {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, rows)
}

function dayFigures(date: string, doc: DayDocument | undefined): Day {
  return {
    date,
    pageViews: doc?.pageViews ?? 0,
    mobile: doc?.devices?.mobile ?? 0,
    desktop: doc?.devices?.desktop ?? 0,
    clientErrors: doc?.clientErrors ?? sum(doc?.errors),
    helpViews: doc?.helpViews ?? 0,
    supportCreated: doc?.supportCreated ?? 0,
    supportFailed: doc?.supportFailed ?? 0,
    profilesSaved: doc?.profilesSaved ?? 0,
  }
}

/** The Analytics screen's figures: the last `days` UTC days up to today. */
export function createDailyReport(repository: DailyRepository) {
  return {
    async lastDays(count: number, now = new Date()): Promise<DailyReport> {
      const dates: string[] = []
      for (let back = count - 1; back >= 0; back -= 1) {
        dates.push(dayOf(new Date(now.getTime() - back * 24 * 60 * 60 * 1000)))
      }
      const from = dates[0]!
      const to = dates[dates.length - 1]!
      const docs = new Map((await repository.range(from, to)).map((doc) => [doc._id, doc]))
      const days = dates.map((date) => dayFigures(date, docs.get(date)))

      const routes = new Map<string, number>()
      const errors = new Map<string, number>()
      const helpPages = new Map<string, number>()
      const devices = new Map<string, number>()
      const completion = new Map<string, number>()
      for (const doc of docs.values()) {
        addAll(routes, doc.routes)
        addAll(errors, doc.errors)
        addAll(helpPages, doc.helpPages)
        addAll(devices, doc.devices)
        addAll(completion, doc.completion)
      }
      const totals = {} as DailyReport['totals']
      for (const field of Object.keys(DaySchema.properties).filter((f) => f !== 'date')) {
        const key = field as keyof DailyReport['totals']
        totals[key] = days.reduce((total, day) => total + day[key], 0)
      }
      return {
        from,
        to,
        days,
        totals,
        devices: top(devices).map(([deviceType, n]) => ({ deviceType, count: n })),
        topRoutes: top(routes).map(([route, n]) => ({ route, count: n })),
        // Free text from anonymous browsers: marked, except the one key the service wrote.
        topErrors: top(errors).map(([message, n]) =>
          message === OTHER_KEY
            ? { message, count: n }
            : { message, count: n, sentByBrowser: true as const },
        ),
        helpPages: top(helpPages).map(([path, n]) => ({ path, count: n })),
        profileCompletion: Array.from({ length: COMPLETION_BUCKETS }, (_, filled) => ({
          filled,
          of: PROFILE_COMPLETION_FIELDS.length,
          count: completion.get(`filled${filled}`) ?? 0,
        })),
      }
    },
  }
}

export type DailyReportService = ReturnType<typeof createDailyReport>
