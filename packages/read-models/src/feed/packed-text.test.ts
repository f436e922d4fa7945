import { packTexts, unpackTexts } from './packed-text'

describe('packTexts', () => {
  it.each([
    [['Help moving', 'Third floor', '', '$20']],
    [['', '']],
    [['one']],
    [['with a \u0000 inside', 'J{"not json"', 'S']],
    [['[', ']', '"quoted"', 'ünïcödé 🙂']],
  ])('gives back exactly the texts it packed: %j', (values) => {
    expect(unpackTexts(packTexts(values))).toEqual(values)
  })
})
