import { consumerGroupsNamed } from '@marketplace/service-kit/testing'
import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'

// Every process follows the feed with a group of its own, which no later process may reuse
// (it starts where that process's snapshot or scan left off): closing the service deletes it,
// so restarts and replicas coming and going leave no group behind on the broker.
describe('jobs feed: the group of a closed instance is deleted from the broker', () => {
  let jobs: JobsTestApp

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_feed_group_cleanup')
  })
  afterAll(() => jobs.stop())

  const feedGroups = () => consumerGroupsNamed(`${jobs.groupPrefix}jobs-feed.`)

  it('two instances, two feed groups; the one closed takes its group along, the shared ones stay', async () => {
    const before = await feedGroups()
    expect(before).toHaveLength(1)
    const replica = await jobs.startReplica()
    expect(await feedGroups()).toHaveLength(2)

    await replica.app.close()
    expect(await feedGroups()).toEqual(before)
    // The instances' shared groups (the service's own subscriptions) are not per process.
    const shared = (await consumerGroupsNamed(jobs.groupPrefix)).filter(
      (groupId) => !groupId.includes('jobs-feed.'),
    )
    expect(shared.length).toBeGreaterThan(0)
  })
})
