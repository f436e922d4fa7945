import { Histogram, Registry } from 'prom-client'
import {
  observe,
  REQUEST_DURATION_BUCKETS,
  type PromClientHistogram,
  type RequestDurationSeries,
} from './metrics'

function histogramIn(registry: Registry) {
  return new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_DURATION_BUCKETS,
    registers: [registry],
  })
}

const LABEL_SETS = [
  { method: 'GET', route: '/api/people/*', status: '200' },
  { method: 'GET', route: '/api/people/*', status: '404' },
  { method: 'POST', route: 'unmatched', status: '404' },
]
// Every bound exactly, between bounds, above the last, and zero.
const VALUES = [
  0, 0.001, 0.005, 0.0051, 0.01, 0.02, 0.025, 0.05, 0.07, 0.1, 0.25, 0.4, 0.5, 1, 2, 2.5, 3, 60,
]

describe('the request duration histogram, updated without prom-client’s observe', () => {
  it('exposes what prom-client’s own observe would, across a reset', async () => {
    const expectedRegistry = new Registry()
    const expected = histogramIn(expectedRegistry)
    const actualRegistry = new Registry()
    const actual = histogramIn(actualRegistry)
    const series: RequestDurationSeries[] = LABEL_SETS.map((labels) => ({
      labels,
      child: actual.labels(labels),
      record: undefined,
      map: undefined,
    }))

    const feed = (rounds: number) => {
      for (let round = 0; round < rounds; round += 1) {
        VALUES.forEach((value, index) => {
          const which = (index + round) % LABEL_SETS.length
          expected.labels(LABEL_SETS[which]!).observe(value)
          observe(actual as unknown as PromClientHistogram, series[which]!, value)
        })
      }
    }

    feed(5)
    expect(await actualRegistry.metrics()).toBe(await expectedRegistry.metrics())
    expect(await actualRegistry.metrics()).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/people/*",status="200"} 30',
    )

    expected.reset()
    actual.reset()
    feed(3)
    expect(await actualRegistry.metrics()).toBe(await expectedRegistry.metrics())
  })
})
