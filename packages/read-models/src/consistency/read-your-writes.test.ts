import { MAX_REFRESHES_PER_READ, createReadYourWrites } from './read-your-writes'

/** A model whose source is a map (the database), applying what its refresh reads. */
function model() {
  const database = new Map<string, number | null>()
  const reads: string[] = []
  const ryw = createReadYourWrites({
    kind: 'post',
    refresh: async (id) => {
      reads.push(id)
      await new Promise((resolve) => setTimeout(resolve, 5))
      const version = database.get(id) ?? null
      ryw.noteApplied(id, version === null ? 'gone' : version)
    },
  })
  return { database, reads, ryw }
}

describe('read-your-writes for an in-memory model', () => {
  it('reads from the database only what the model has not applied at the version named, once', async () => {
    const { database, reads, ryw } = model()
    ryw.noteApplied('a', 5) // learned from Kafka already
    database.set('b', 7) // written elsewhere, event not here yet
    expect(await ryw.catchUp('post:a@5, post:b@7, user:c@1')).toEqual({ asked: 2, refreshed: 1 })
    expect(reads).toEqual(['b'])
    expect(await ryw.catchUp('post:a@5, post:b@7')).toEqual({ asked: 2, refreshed: 0 })
    // A newer version of a is not applied yet: read once.
    database.set('a', 9)
    expect(await ryw.catchUp('post:a@9')).toEqual({ asked: 1, refreshed: 1 })
    expect(await ryw.catchUp(undefined)).toEqual({ asked: 0, refreshed: 0 })
  })

  it('a deletion covers every version; a version named that never existed is read once, not forever', async () => {
    const { reads, ryw } = model()
    ryw.noteApplied('gone', 'gone')
    expect((await ryw.catchUp('post:gone@-, post:gone@3')).refreshed).toBe(0)
    expect((await ryw.catchUp('post:future@999')).refreshed).toBe(1)
    expect((await ryw.catchUp('post:future@999')).refreshed).toBe(0)
    expect(reads).toEqual(['future'])
  })

  it('reads asking for the same item at once share one database read', async () => {
    const { database, reads, ryw } = model()
    database.set('x', 1)
    await Promise.all([ryw.catchUp('post:x@1'), ryw.catchUp('post:x@1'), ryw.catchUp('post:x@1')])
    expect(reads).toEqual(['x'])
  })

  it('reads at most so many items from the database for one read; the rest on a later one', async () => {
    const { reads, ryw } = model()
    const many = Array.from({ length: 40 }, (_, i) => `post:made${i}@1`).join(',')
    expect(await ryw.catchUp(many)).toEqual({ asked: 40, refreshed: MAX_REFRESHES_PER_READ })
    expect((await ryw.catchUp(many)).refreshed).toBe(MAX_REFRESHES_PER_READ)
    expect(reads).toHaveLength(2 * MAX_REFRESHES_PER_READ)
  })
})
