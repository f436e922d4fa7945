import { APP_ROUTE_PATTERNS, NOT_AN_APP_ROUTE, appRouteOf } from './app-routes'

describe('the web app’s route patterns', () => {
  it('name the page a path is, ids and all', () => {
    expect(appRouteOf('/')).toBe('/')
    expect(appRouteOf('/settings-account/')).toBe('/settings-account')
    expect(appRouteOf('/messages/64b7f0c2a1b2c3d4e5f60718')).toBe('/messages/:conversationId')
    expect(appRouteOf('/messages/request/64b7f0c2a1b2c3d4e5f60718')).toBe(
      '/messages/request/:requestId',
    )
    for (const pattern of APP_ROUTE_PATTERNS.filter((p) => !p.includes(':'))) {
      expect(appRouteOf(pattern)).toBe(pattern)
    }
  })

  it('put every other path under one key, whatever it says', () => {
    for (const path of [
      '/wp-admin',
      '/settings-account/extra',
      '/messages/',
      '/<script>alert(1)</script>',
      `/${'a'.repeat(400)}`,
      '/login//',
    ]) {
      expect({ path, route: appRouteOf(path) }).toEqual({
        path,
        route:
          path === '/messages/' ? '/messages' : path === '/login//' ? '/login' : NOT_AN_APP_ROUTE,
      })
    }
  })
})
