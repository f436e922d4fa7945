/**
 * Applies documents to an in-memory index so that an older read never undoes a newer change.
 *
 * A feed learns of changes two ways: its own process's writes hand over the document they
 * wrote, and events make it re-read a document by `_id`. A re-read that started before a
 * write and returns after the write was applied would put the old version back (a post
 * switched offline showing in the feed again). So every apply stamps the id, and a re-read
 * whose id was stamped while it was reading reads again.
 */
export function createOrderedApply<T>(applyToIndex: (id: string, document: T | null) => void) {
  const stamps = new Map<string, number>()
  let clock = 0

  function apply(id: string, document: T | null): void {
    applyToIndex(id, document)
    clock += 1
    stamps.set(id, clock)
  }

  async function refresh(id: string, read: () => Promise<T | null>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const before = stamps.get(id)
      const document = await read()
      // Unchanged meanwhile: this read is the newest state. A document changing on every
      // read is applied after a few tries; the next change's event re-reads it anyway.
      if (stamps.get(id) === before || attempt >= 5) {
        apply(id, document)
        return
      }
    }
  }

  return { apply, refresh }
}
