import { startJobsTestApp, type JobsTestApp } from '../test/jobs-test-app'
import { POST_LISTS_COLLECTION } from './posts-repository'

// issue 19 §2: my posts and the stats read the owner's list of posts by _id.

describe('jobs service: each owner’s list of posts (real FerretDB and Kafka)', () => {
  let jobs: JobsTestApp

  beforeAll(async () => {
    jobs = await startJobsTestApp('jobs_post_lists')
  }, 200_000)
  afterAll(() => jobs.stop())

  const listOf = (ownerId: string) =>
    jobs.db.collection(POST_LISTS_COLLECTION).findOne({ _id: `${ownerId}:own` as never })

  it('lists a post on create and unlists it on delete; my posts and the stats read the list', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const ids: string[] = []
    for (const title of ['First post', 'Second post']) {
      const created = await owner.post('/api/jobs', { title, where: 'Boston MA' })
      expect(created.status).toBe(201)
      ids.push(created.body._id)
    }
    expect((await listOf(ownerId))?.ids).toEqual(ids)
    expect((await owner.get('/api/jobs/my-jobs')).body.map((p: { _id: string }) => p._id)).toEqual(
      [...ids].reverse(),
    )
    expect((await owner.get(`/api/jobs/stats/${ownerId}`)).body.posts).toEqual({
      total: 2,
      online: 2,
      offline: 0,
    })

    expect((await owner.delete(`/api/jobs/${ids[0]}`)).status).toBe(204)
    expect((await listOf(ownerId))?.ids).toEqual([ids[1]])
    expect((await owner.get('/api/jobs/my-jobs')).body.map((p: { _id: string }) => p._id)).toEqual([
      ids[1],
    ])
    expect((await owner.get(`/api/jobs/stats/${ownerId}`)).body.posts.total).toBe(1)
  })

  it('serves posts stored before the lists (the old shape), filling the list once', async () => {
    const ownerId = jobs.newUserId()
    const owner = jobs.clientFor(ownerId)
    const created = await owner.post('/api/jobs', { title: 'Stored long ago', where: 'Denver CO' })
    // The post as it was stored before the lists: no list document.
    await jobs.db.collection(POST_LISTS_COLLECTION).deleteOne({ _id: `${ownerId}:own` as never })

    const mine = await owner.get('/api/jobs/my-jobs')
    expect(mine.body.map((p: { _id: string }) => p._id)).toEqual([created.body._id])
    expect(await listOf(ownerId)).toMatchObject({ ids: [created.body._id], complete: true })
    expect((await owner.get(`/api/jobs/stats/${ownerId}`)).body.posts.total).toBe(1)
  })
})
