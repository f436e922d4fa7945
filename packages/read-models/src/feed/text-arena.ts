/**
 * The rows' own texts as UTF-8 in one growing buffer, 8 bytes of position per row: outside the
 * JavaScript heap, so a million texts are neither a million string objects (a header each) nor
 * a heap that the garbage collector keeps room to grow in. A changed text is appended and the
 * old bytes left behind; once a quarter of the buffer is left behind, the live texts are
 * copied into a new one. Bytes once written never change (a change or a compaction writes
 * elsewhere), so a snapshot may keep reading a buffer it was given while the feed goes on.
 */
export class TextArena {
  private bytes = Buffer.alloc(64 * 1024)
  private end = 0
  private abandoned = 0
  private start = new Uint32Array(0)
  private length = new Uint32Array(0)

  /** Makes room for rows up to `capacity`. */
  resize(capacity: number): void {
    const start = new Uint32Array(capacity)
    const length = new Uint32Array(capacity)
    start.set(this.start.subarray(0, Math.min(capacity, this.start.length)))
    length.set(this.length.subarray(0, Math.min(capacity, this.length.length)))
    this.start = start
    this.length = length
  }

  get(row: number): string {
    const start = this.start[row]!
    return this.bytes.toString('utf8', start, start + this.length[row]!)
  }

  /** Gives `row` this text; `rows` is how many rows there are (for a compaction). */
  set(row: number, text: string, rows: number): void {
    this.clear(row)
    const size = Buffer.byteLength(text, 'utf8')
    if (this.end + size > this.bytes.length) {
      if (this.abandoned * 4 > this.end) this.compact(rows, size)
      if (this.end + size > this.bytes.length) this.grow(this.end + size)
    }
    this.bytes.write(text, this.end, 'utf8')
    this.start[row] = this.end
    this.length[row] = size
    this.end += size
  }

  /** The row no longer has a text (released). */
  clear(row: number): void {
    this.abandoned += this.length[row]!
    this.length[row] = 0
  }

  /** The texts of `rows` as they are now, read later by position (a snapshot's copy). */
  copy(rows: Int32Array): (position: number) => string {
    const bytes = this.bytes
    const start = Uint32Array.from(rows, (row) => this.start[row]!)
    const length = Uint32Array.from(rows, (row) => this.length[row]!)
    return (position) =>
      bytes.toString('utf8', start[position]!, start[position]! + length[position]!)
  }

  /** Makes room for `bytes` more bytes at once (a load that knows its size grows no buffer). */
  reserve(bytes: number): void {
    if (this.end + bytes > this.bytes.length) this.grow(this.end + bytes)
  }

  /** The bytes the texts of `rows` take. */
  bytesOf(rows: Int32Array): number {
    let total = 0
    for (const row of rows) total += this.length[row]!
    return total
  }

  /** Gives back the room a load's growth left (a sixteenth is kept for the changes to come). */
  trim(): void {
    if (this.bytes.length <= this.end * 1.125) return
    const bytes = Buffer.alloc(Math.ceil(this.end * 1.0625) + 1024)
    this.bytes.copy(bytes, 0, 0, this.end)
    this.bytes = bytes
  }

  private grow(atLeast: number): void {
    const bytes = Buffer.alloc(Math.max(atLeast, Math.ceil(this.bytes.length * 1.5)))
    this.bytes.copy(bytes, 0, 0, this.end)
    this.bytes = bytes
  }

  private compact(rows: number, room: number): void {
    const live = this.end - this.abandoned
    const bytes = Buffer.alloc(Math.ceil((live + room) * 1.25))
    let end = 0
    for (let row = 0; row < rows; row += 1) {
      const length = this.length[row]!
      if (length === 0) continue
      this.bytes.copy(bytes, end, this.start[row]!, this.start[row]! + length)
      this.start[row] = end
      end += length
    }
    this.bytes = bytes
    this.end = end
    this.abandoned = 0
  }
}
