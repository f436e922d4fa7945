import { TextArena } from './text-arena'

describe('TextArena', () => {
  it('gives back every text as set, through changes, releases and compactions', () => {
    const arena = new TextArena()
    const rows = 2000
    arena.resize(rows)
    const model: string[] = []
    const texts = ['', 'plain', 'ünïcödé 🙂', 'S\u0000with\u0000nul', 'x'.repeat(5000)]
    for (let round = 0; round < 40; round += 1) {
      for (let row = 0; row < rows; row += 1) {
        if ((row + round) % 3 === 0) {
          arena.clear(row)
          model[row] = ''
        } else {
          const text = `${texts[(row * 7 + round) % texts.length]}#${round}`
          arena.set(row, text, rows)
          model[row] = text
        }
      }
    }
    for (let row = 0; row < rows; row += 1) expect(arena.get(row)).toBe(model[row])
  })

  it('keeps a copy readable while the texts change', () => {
    const arena = new TextArena()
    arena.resize(3)
    arena.set(0, 'first', 3)
    arena.set(1, 'second', 3)
    const copy = arena.copy(Int32Array.of(1, 0))
    for (let i = 0; i < 1000; i += 1) arena.set(0, `changed ${i} ${'y'.repeat(100)}`, 3)
    arena.clear(1)
    expect([copy(0), copy(1)]).toEqual(['second', 'first'])
  })
})
