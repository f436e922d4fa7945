const HEX_ID = /^[0-9a-f]{24}$/
const EMPTY = 0

/**
 * The ids of a columnar feed's rows and the way back from an id to its row. An ObjectId in hex
 * (every id the services issue) is held as its 12 bytes, and the lookup is an open-addressing
 * table of row numbers (4 bytes a slot, at most half full): about 20 bytes a row, where a
 * string per id and a Map entry cost about 90. Any other id (tests, another kind of key) is
 * kept as a string beside.
 */
export class IdTable {
  private words = new Uint32Array(0)
  /** Rows whose id is not a hex ObjectId: their id as given. */
  private others = new Map<number, string>()
  /** Row number + 1 per slot; linear probing, removals shift the run back (no tombstones). */
  private table = new Int32Array(16)
  private count = 0

  /** Makes room for rows up to `capacity` (row numbers below it). */
  resize(capacity: number): void {
    const words = new Uint32Array(capacity * 3)
    words.set(this.words.subarray(0, Math.min(this.words.length, words.length)))
    this.words = words
  }

  get size(): number {
    return this.count
  }

  /** The row holding `id`, if any. */
  get(id: string): number | undefined {
    const found = this.find(id)
    return found.row
  }

  /** Gives `row` the id `id` (the row must hold none: a new or released row). */
  set(id: string, row: number): void {
    this.place(this.find(id), id, row)
  }

  /**
   * Gives `row` the id `id` unless another row holds it already (then answers that row): one
   * reading of the id for both (a load adds a million).
   */
  add(id: string, row: number): number | undefined {
    const found = this.find(id)
    if (found.row !== undefined) return found.row
    this.place(found, id, row)
    return undefined
  }

  private find(id: string): {
    row: number | undefined
    hex: boolean
    a: number
    b: number
    c: number
  } {
    const hex = HEX_ID.test(id)
    const a = hex ? parseInt(id.slice(0, 8), 16) : 0
    const b = hex ? parseInt(id.slice(8, 16), 16) : 0
    const c = hex ? parseInt(id.slice(16), 16) : 0
    const mask = this.table.length - 1
    for (let at = (hex ? mixWords(a, b, c) : hashText(id)) & mask; ; at = (at + 1) & mask) {
      const entry = this.table[at]!
      if (entry === EMPTY) return { row: undefined, hex, a, b, c }
      const row = entry - 1
      if (hex) {
        if (
          !this.others.has(row) &&
          this.words[row * 3] === a &&
          this.words[row * 3 + 1] === b &&
          this.words[row * 3 + 2] === c
        )
          return { row, hex, a, b, c }
      } else if (this.others.get(row) === id) return { row, hex, a, b, c }
    }
  }

  private place(id: { hex: boolean; a: number; b: number; c: number }, text: string, row: number) {
    if (id.hex) {
      this.words[row * 3] = id.a
      this.words[row * 3 + 1] = id.b
      this.words[row * 3 + 2] = id.c
      this.others.delete(row)
    } else this.others.set(row, text)
    if ((this.count + 1) * 2 > this.table.length) this.rehash(this.table.length * 2)
    const mask = this.table.length - 1
    let at = this.hashOf(row) & mask
    while (this.table[at] !== EMPTY) at = (at + 1) & mask
    this.table[at] = row + 1
    this.count += 1
  }

  /** Takes `row`'s id out of the lookup (the row is released). */
  delete(row: number): void {
    const mask = this.table.length - 1
    let at = this.hashOf(row) & mask
    while (this.table[at] !== row + 1) {
      if (this.table[at] === EMPTY) return
      at = (at + 1) & mask
    }
    // Backward shift: each later entry of the run moves into the hole if its home allows it.
    let hole = at
    for (let next = (hole + 1) & mask; this.table[next] !== EMPTY; next = (next + 1) & mask) {
      const home = this.hashOf(this.table[next]! - 1) & mask
      const fits = hole <= next ? home <= hole || home > next : home <= hole && home > next
      if (fits) {
        this.table[hole] = this.table[next]!
        hole = next
      }
    }
    this.table[hole] = EMPTY
    this.others.delete(row)
    this.count -= 1
  }

  idOf(row: number): string {
    const other = this.others.get(row)
    if (other !== undefined) return other
    return [
      hex8(this.words[row * 3]!),
      hex8(this.words[row * 3 + 1]!),
      hex8(this.words[row * 3 + 2]!),
    ].join('')
  }

  /** Whether row `a`'s id sorts after row `b`'s (the feed's tie-break, as strings compare). */
  isGreater(a: number, b: number): boolean {
    if (this.others.size === 0 || (!this.others.has(a) && !this.others.has(b))) {
      for (let i = 0; i < 3; i += 1) {
        const x = this.words[a * 3 + i]!
        const y = this.words[b * 3 + i]!
        if (x !== y) return x > y
      }
      return false
    }
    return this.idOf(a) > this.idOf(b)
  }

  /**
   * The ids of `rows` as they are now, read later by position (a snapshot's copy: the rows may
   * change or be released meanwhile).
   */
  copy(rows: Int32Array): (position: number) => string {
    const words = new Uint32Array(rows.length * 3)
    const others = new Map<number, string>()
    rows.forEach((row, position) => {
      words.set(this.words.subarray(row * 3, row * 3 + 3), position * 3)
      const other = this.others.get(row)
      if (other !== undefined) others.set(position, other)
    })
    return (position) =>
      others.get(position) ??
      [
        hex8(words[position * 3]!),
        hex8(words[position * 3 + 1]!),
        hex8(words[position * 3 + 2]!),
      ].join('')
  }

  private hashOf(row: number): number {
    const other = this.others.get(row)
    if (other !== undefined) return hashText(other)
    return mixWords(this.words[row * 3]!, this.words[row * 3 + 1]!, this.words[row * 3 + 2]!)
  }

  private rehash(size: number): void {
    const old = this.table
    this.table = new Int32Array(size)
    const mask = size - 1
    for (const entry of old) {
      if (entry === EMPTY) continue
      let at = this.hashOf(entry - 1) & mask
      while (this.table[at] !== EMPTY) at = (at + 1) & mask
      this.table[at] = entry
    }
  }
}

function hex8(word: number): string {
  return word.toString(16).padStart(8, '0')
}

/** An ObjectId's bytes mixed into a table position (its counter alone would cluster). */
function mixWords(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b)
  h = Math.imul(h ^ b ^ (h >>> 13), 0xc2b2ae35)
  h = Math.imul(h ^ c ^ (h >>> 16), 0x27d4eb2f)
  return (h ^ (h >>> 15)) >>> 0
}

/** FNV-1a of a string, for ids that are not ObjectIds. */
function hashText(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}
