import { expectEveryWriteAccounted, marketplaceDay } from './marketplace-day'

// A short marketplace day under faults: the committed workload (scripts/load/marketplace-day.mjs)
// runs for two minutes through the gateway on a stack of its own (its own Kafka and database
// as processes, every service twice, as `REPLICAS=2 start.sh`), while the broker is frozen for
// 20 s (SIGSTOP, what `docker pause` does to a container) and, later, one instance of every
// service is killed (SIGKILL) and started again 20 s after. At the end every acknowledged
// write (requests on posts, decisions, messages, favorites, requests to people) is looked up
// through the API and in the other side's socket: none may be lost or duplicated. The long
// run with every fault is the same script; its figures are in docs/reliability.md.
describe('a marketplace day with the broker frozen and a service instance killed', () => {
  const day = marketplaceDay('marketplace-day')
  afterAll(() => day.stop())

  it('loses and duplicates no acknowledged write', async () => {
    const { exitCode, report } = await day.run([
      '--duration',
      '120',
      '--rate',
      '4',
      '--users',
      '9',
      '--faults',
      'broker-freeze@25+20,instances-kill@65+20',
      '--settle',
      '90',
    ])
    expectEveryWriteAccounted(report, ['broker-freeze', 'instances-kill'])
    expect(exitCode).toBe(0)
  }, 1_200_000)
})
