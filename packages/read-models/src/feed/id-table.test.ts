import { IdTable } from './id-table'

describe('IdTable', () => {
  it('finds each row by its id through many adds and removals, ObjectIds and other ids alike', () => {
    // mulberry32: a long period, so the random ids never repeat.
    let seed = 11
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
    }
    const hex = () =>
      Array.from({ length: 24 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('')
    const table = new IdTable()
    table.resize(4000)
    const model = new Map<string, number>()
    const free: number[] = []
    let used = 0
    for (let step = 0; step < 20_000; step += 1) {
      if (model.size > 0 && random() < 0.45) {
        const [id, row] = [...model][Math.floor(random() * model.size)]!
        table.delete(row)
        model.delete(id)
        free.push(row)
      } else {
        const id = random() < 0.1 ? `other-${step}` : hex()
        const row = free.pop() ?? used++
        table.set(id, row)
        model.set(id, row)
      }
    }
    expect(table.size).toBe(model.size)
    for (const [id, row] of model) {
      expect(table.get(id)).toBe(row)
      expect(table.idOf(row)).toBe(id)
    }
    expect(table.get(hex())).toBeUndefined()
    expect(table.get('other-missing')).toBeUndefined()
    const rows = [...model.values()]
    for (let i = 1; i < rows.length; i += 1) {
      const [a, b] = [rows[i - 1]!, rows[i]!]
      expect(table.isGreater(a, b)).toBe(table.idOf(a) > table.idOf(b))
    }
    const copy = table.copy(Int32Array.from(rows))
    rows.forEach((row, position) => expect(copy(position)).toBe(table.idOf(row)))
  })

  it('keeps leading zeros and upper case ids as they are', () => {
    const table = new IdTable()
    table.resize(4)
    table.set('000000000000000000000001', 0)
    table.set('0000000000000000000000AB', 1)
    expect(table.idOf(0)).toBe('000000000000000000000001')
    expect(table.get('0000000000000000000000AB')).toBe(1)
    expect(table.get('0000000000000000000000ab')).toBeUndefined()
  })
})
