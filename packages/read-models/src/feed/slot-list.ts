/**
 * Row numbers ("slots") kept in an order the caller defines, 4 bytes each in one growable
 * Int32Array: a feed's lists (every row, each filter value's rows, each word's rows) at a
 * million rows cost 4 bytes per entry instead of an 8-byte pointer to an object per entry.
 */
export class SlotList {
  items: Int32Array
  length = 0

  constructor(capacity = 4) {
    this.items = new Int32Array(Math.max(2, capacity))
  }

  /** Appends without keeping the order (a bulk load, sorted or checked afterwards). */
  push(slot: number): void {
    // Doubling: a load's lists grow from nothing to their size, and an eighth at a time would
    // leave nine times the list behind as garbage (trimmed to size once the load is done).
    if (this.length === this.items.length) this.grow(this.length * 2)
    this.items[this.length] = slot
    this.length += 1
  }

  /** Inserts at the place `before` gives (true when `a` comes before `b`). */
  insert(slot: number, before: (a: number, b: number) => boolean): void {
    const at = this.lowerBound(slot, before)
    if (at < this.length && this.items[at] === slot) return
    if (this.length === this.items.length) this.grow(this.length + 1)
    this.items.copyWithin(at + 1, at, this.length)
    this.items[at] = slot
    this.length += 1
  }

  /**
   * Removes `slot`, found by its place in the order: the caller removes a row before it
   * changes the values the order reads. Answers whether it was there.
   */
  remove(slot: number, before: (a: number, b: number) => boolean): boolean {
    const at = this.lowerBound(slot, before)
    if (at >= this.length || this.items[at] !== slot) return false
    this.items.copyWithin(at, at + 1, this.length)
    this.length -= 1
    // A list that shrank to a quarter gives its room back (a category emptied by a purge).
    if (this.items.length > 64 && this.length < this.items.length / 4)
      this.items = this.items.slice(0, this.length * 2)
    return true
  }

  /** Whether the entries are in order (a load in feed order needs no sort). */
  isSorted(before: (a: number, b: number) => boolean): boolean {
    for (let i = 1; i < this.length; i += 1) {
      if (!before(this.items[i - 1]!, this.items[i]!)) return false
    }
    return true
  }

  sort(before: (a: number, b: number) => boolean): void {
    const sorted = this.view().sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
    this.items.set(sorted)
  }

  /** The entries (a view on the list's memory: valid until the list next changes). */
  view(): Int32Array {
    return this.items.subarray(0, this.length)
  }

  /** Gives back the room a load's growth left (a list is then exactly as long as it is). */
  trim(): void {
    if (this.items.length > this.length + 8) this.items = this.items.slice(0, this.length)
  }

  private lowerBound(slot: number, before: (a: number, b: number) => boolean): number {
    let low = 0
    let high = this.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (before(this.items[middle]!, slot)) low = middle + 1
      else high = middle
    }
    return low
  }

  private grow(atLeast: number): void {
    // Doubling while small, an eighth more once large: a million-entry list that gains an
    // entry does not reserve a second million.
    const capacity = Math.max(
      atLeast,
      this.items.length < 65_536 ? this.items.length * 2 : Math.ceil(this.items.length * 1.125),
    )
    const items = new Int32Array(capacity)
    items.set(this.items.subarray(0, this.length))
    this.items = items
  }
}
