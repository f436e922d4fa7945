import { proxiedPath, UnsafePathError } from './proxy-path'

const UPSTREAM = 'http://127.0.0.1:4902'
const PREFIX = '/api/people'

describe('proxiedPath', () => {
  it.each([
    ['/api/people', '/api/people'],
    ['/api/people/', '/api/people/'],
    ['/api/people?page=1&sort=desc', '/api/people'],
    ['/api/people/abc/def?next=../../auth', '/api/people/abc/def'],
    ['/api/people/a.b/c...d', '/api/people/a.b/c...d'],
    ['/api/people/./x', '/api/people/./x'],
    ["/api/people/a:b@c!$&'()*+,;=~_-", "/api/people/a:b@c!$&'()*+,;=~_-"],
    // Not plain (a '%'): the full check, which lets these through.
    ['/api/people/%C3%A9t%C3%A9', '/api/people/%C3%A9t%C3%A9'],
    ['/api/people/%2F', '/api/people/%2F'],
    ['/api/people/a%20b', '/api/people/a%20b'],
  ])('%s goes on as %s', (url, path) => {
    expect(proxiedPath(url, PREFIX, UPSTREAM)).toBe(path)
  })

  it.each([
    '/api/people/..',
    '/api/people/../auth/refresh',
    '/api/people/x/../../auth',
    '/api/people/%2e%2e/auth',
    '/api/people/%2E%2E',
    '/api/people/.%2e/auth',
    '/api/people/..%2fauth',
    '/api/people/..%5cauth',
    '/api/people/..\\auth',
    '/api/people/x\\..\\..\\auth',
    '/api/people/%zz',
    '/api/people/%',
    '/api/people/.\t./auth',
    '/api/people/.\n./auth',
    '//evil.example/api/people',
    '/\\evil.example/api/people',
    'http://evil.example/api/people/x',
    'javascript:alert(1)',
    // Not under the prefix at all (the router would not send it here; still refused).
    '/api/auth/refresh',
    '/api/peoplex',
  ])('%j is refused with 400', (url) => {
    expect(() => proxiedPath(url, PREFIX, UPSTREAM)).toThrow(UnsafePathError)
    try {
      proxiedPath(url, PREFIX, UPSTREAM)
    } catch (error) {
      expect((error as UnsafePathError).statusCode).toBe(400)
    }
  })

  it('judges an upstream given with a trailing slash the same way', () => {
    expect(proxiedPath('/api/people/x', PREFIX, `${UPSTREAM}/`)).toBe('/api/people/x')
    expect(() => proxiedPath('/api/people/%2e%2e/x', PREFIX, `${UPSTREAM}/`)).toThrow(
      UnsafePathError,
    )
  })
})
