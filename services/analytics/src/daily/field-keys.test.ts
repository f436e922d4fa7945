import { escapeKey, normalizeMessage, normalizeRoute, unescapeKey } from './field-keys'

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

  it('counts every id of a route as :id and drops a trailing slash', () => {
    expect(normalizeRoute('/posts/64f1a2b3c4d5e6f708192a3b')).toBe('/posts/:id')
    expect(normalizeRoute('/messages/request/123/')).toBe('/messages/request/:id')
    expect(normalizeRoute('/x/0f8fad5b-d9cb-469f-a165-70867728950e')).toBe('/x/:id')
    expect(normalizeRoute('/settings-account')).toBe('/settings-account')
    expect(normalizeRoute('/')).toBe('/')
    expect(normalizeRoute(`/${'a'.repeat(300)}`)).toHaveLength(201)
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
