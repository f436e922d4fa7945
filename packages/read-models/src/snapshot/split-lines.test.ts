import { Readable } from 'node:stream'
import { splitLines } from './snapshot-store'

const linesOf = async (chunks: string[]) => {
  const lines: string[] = []
  for await (const line of splitLines(Readable.from(chunks.map((chunk) => Buffer.from(chunk)))))
    lines.push(line)
  return lines
}

describe('splitLines', () => {
  it('gives each line whole, however the chunks cut it, long lines included', async () => {
    const long = 'x'.repeat(100_000)
    const text = `{"a":1}\n${long}\n\nlast`
    const expected = ['{"a":1}', long, '', 'last']
    for (const size of [1, 7, 4096, text.length]) {
      const chunks: string[] = []
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size))
      expect(await linesOf(chunks)).toEqual(expected)
    }
    expect(await linesOf(['one\ntwo\n'])).toEqual(['one', 'two'])
    expect(await linesOf([])).toEqual([])
  })
})
