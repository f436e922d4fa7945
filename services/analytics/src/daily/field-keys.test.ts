import { escapeKey, normalizeMessage, unescapeKey } from './field-keys'

describe('field keys: routes and messages as Mongo field names', () => {
  it('escapes ".", "$", "%" and NUL, and decodes back to the same text', () => {
    for (const text of ['/a.b', '$where', '100% done.', 'x\u0000y', '%2E stays', '/']) {
      const key = escapeKey(text)
      for (const forbidden of ['.', '$', String.fromCharCode(0)])
        expect(key).not.toContain(forbidden)
      expect(unescapeKey(key)).toBe(text)
    }
    expect(escapeKey('/files/a.pdf')).toBe('/files/a%2Epdf')
  })

  it('folds numbers, ids and addresses of a message and cuts it short', () => {
    expect(normalizeMessage('Failed to fetch https://x.test/api/jobs/12 after 3 tries')).toBe(
      'Failed to fetch <url> after <n> tries',
    )
    expect(normalizeMessage('no post 64f1a2b3c4d5e6f708192a3b')).toBe('no post <id>')
    expect(normalizeMessage('  spaced \n out  ')).toBe('spaced out')
    expect(normalizeMessage(undefined)).toBe('(no message)')
    expect(normalizeMessage('x'.repeat(500))).toHaveLength(161)
  })
})
