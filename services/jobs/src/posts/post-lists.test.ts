import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { POSTS_COLLECTION, type PostDocument } from './post-document'

// My posts and the stats read the owner's posts with one query on `owner_recent`
// (posts-repository.ts): newest first, gone once deleted, and as many database commands
// whatever the number of other owners' posts.

describe('jobs service: each owner’s posts (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_post_lists')
  }, 200_000)
  afterAll(() => jobs.stop())

  it('lists an owner’s posts newest first, without a deleted one; my posts and the stats agree', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const ids: string[] = []
    for (const title of ['First post', 'Second post']) {
      const created = await owner.post('/api/jobs', { title, where: 'Boston MA' })
      expect(created.status).toBe(201)
      ids.push(created.body._id)
    }
    expect((await owner.get('/api/jobs/my-jobs')).body.map((p: { _id: string }) => p._id)).toEqual(
      [...ids].reverse(),
    )
    expect((await owner.get(`/api/jobs/stats/${ownerId}`)).body.posts).toEqual({
      total: 2,
      online: 2,
      offline: 0,
    })

    expect((await owner.delete(`/api/jobs/${ids[0]}`)).status).toBe(204)
    expect((await owner.get('/api/jobs/my-jobs')).body.map((p: { _id: string }) => p._id)).toEqual([
      ids[1],
    ])
    expect((await owner.get(`/api/jobs/stats/${ownerId}`)).body.posts.total).toBe(1)
  })

  it('serves my posts and the stats in a fixed number of commands, at 1x and 10x the posts', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const created = await owner.post('/api/jobs', { title: 'Mine', where: 'Denver CO' })
    const posts = jobs.db.collection<PostDocument>(POSTS_COLLECTION)
    const mine = await posts.findOne({ _id: created.body._id })
    /** `count` posts of other owners, stored as the service stores a post. */
    const storeOthers = (count: number) =>
      posts.insertMany(
        Array.from({ length: count }, (): PostDocument => {
          const post: PostDocument = { ...mine!, _id: jobs.newUserId(), userID: jobs.newUserId() }
          delete post.outbox
          delete post.outboxPending
          return post
        }),
      )
    const costs = async () => {
      const myJobs = await owner.get('/api/jobs/my-jobs')
      expect(myJobs.body.map((p: { _id: string }) => p._id)).toEqual([created.body._id])
      const stats = await owner.get(`/api/jobs/stats/${ownerId}`)
      expect(stats.body.posts.total).toBe(1)
      return { myJobs: myJobs.commands, stats: stats.commands }
    }
    await storeOthers(40)
    const atSmall = await costs()
    await storeOthers(360)
    const atLarge = await costs()
    console.log(
      `my posts and stats commands at 1x and 10x: ${JSON.stringify({ atSmall, atLarge })}`,
    )
    expect(atLarge).toEqual(atSmall)
    for (const commands of Object.values(atSmall)) {
      expect(commands).toBeGreaterThan(0)
      expect(commands).toBeLessThanOrEqual(6)
    }
  })
})
