import { expectEveryWriteAccounted, marketplaceDay } from './marketplace-day'

// Kills under a stream of writes, with nothing else failing: the committed workload
// (scripts/load/marketplace-day.mjs) on a stack of its own with every service twice and two
// gateways on one port (REPLICAS=2), while one of the two gateways is killed (SIGKILL) and
// started again 5 s later, then instance 1 of every service is killed in the middle of its
// writes and started again 20 s later. Every write carries an Idempotency-Key: a write whose
// instance died under it is sent by the gateway to the other instance, which answers it once;
// a call the killed gateway held loses its connection, and the client sends it again with
// the same key, as the web app does (only what reaches the person counts, as for reads).
// Not one answer may be other than success or 503 with Retry-After (`--strict`), and no
// acknowledged write may be lost or stored twice (docs/reliability.md, "A killed instance").
describe('writes while service instances and a gateway are killed', () => {
  const day = marketplaceDay('marketplace-day-kills')
  afterAll(() => day.stop())

  it('answers every call with success or 503 with Retry-After, and loses and duplicates nothing', async () => {
    const { exitCode, report } = await day.run([
      '--duration',
      '100',
      '--rate',
      '4',
      '--users',
      '9',
      '--faults',
      'gateway-restart@20+5,instances-kill@45+20',
      '--settle',
      '60',
      '--strict',
    ])
    expectEveryWriteAccounted(report, ['gateway-restart', 'instances-kill'])
    // No refused call, no 502 on a write whose instance died: success or 503 + Retry-After.
    console.log(`keyed writes: ${JSON.stringify(report.idempotency)}`)
    expect({ badAnswers: report.badAnswers.total, first: report.badAnswers.first }).toEqual({
      badAnswers: 0,
      first: [],
    })
    expect(exitCode).toBe(0)
  }, 1_200_000)
})
