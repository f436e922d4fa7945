import { createOrderedApply } from './ordered-apply'

describe('createOrderedApply', () => {
  it('reads again when a newer version was applied while a re-read was under way', async () => {
    const index = new Map<string, string | null>()
    const ordered = createOrderedApply<string>((id, doc) => index.set(id, doc))
    let stored = 'v1'
    let reads = 0
    const refreshing = ordered.refresh('post', async () => {
      reads += 1
      const seen = stored
      // The write lands (and is applied by its own process) while this read is in flight.
      if (reads === 1) {
        stored = 'v2'
        ordered.apply('post', 'v2')
      }
      return seen
    })
    await refreshing
    expect(reads).toBe(2)
    expect(index.get('post')).toBe('v2')
  })

  it('applies a re-read at once when nothing changed meanwhile', async () => {
    const index = new Map<string, string | null>()
    const ordered = createOrderedApply<string>((id, doc) => index.set(id, doc))
    ordered.apply('post', 'v1')
    let reads = 0
    await ordered.refresh('post', async () => {
      reads += 1
      return null
    })
    expect(reads).toBe(1)
    expect(index.get('post')).toBeNull()
  })
})
