import { render } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom'
import { createStore, type AppStore } from '@/app/store'
import { credentialsReceived } from '@/lib/auth-slice'
import type { SessionUser } from '@marketplace/contracts/api'

/** The helpers every web test shares: a user, a stubbed `fetch` and a router over a store. */

export const sampleUser: SessionUser = {
  _id: 'u1',
  firstName: 'Ava',
  lastName: 'Turner',
  email: 'ava@example.test',
  phoneNumber: '(123) 456-7890',
  isWorker: false,
  roles: ['2000'],
}

export function signIn(store: AppStore, user: SessionUser = sampleUser) {
  store.dispatch(credentialsReceived({ user, accessToken: 'token' }))
}

export const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })

export type FetchHandler = (path: string, request: Request) => Response | Promise<Response>

/**
 * A handler that also answers the session renewal, as auth does for a live session: a 401
 * or 403 from a service makes the app renew once and retry, so a test of a
 * refusal must let the renewal succeed to see the refusal's own message.
 */
export function withRenewal(handler: FetchHandler): FetchHandler {
  return (url, request) =>
    url === '/api/auth/refresh'
      ? jsonResponse(200, {
          accessToken: 'renewed-token',
          user: sampleUser,
          roles: sampleUser.roles,
        })
      : handler(url, request)
}

/**
 * Stubs `fetch` with a handler per call, given the request's path and the request itself.
 * Same-origin paths ('/api/...') are resolved against the page by the jsdom environment
 * (src/test/jsdom-environment.cjs), for `fetch` and `Request` alike.
 */
export function stubFetch(handler: FetchHandler) {
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init)
    return handler(new URL(request.url).pathname, request)
  })
  return {
    spy,
    restore() {
      spy.mockRestore()
    },
  }
}

/** Renders routes in a memory router over a fresh store (or the one given). */
export function renderRoutes(
  routes: RouteObject[],
  {
    at = '/',
    state,
    store = createStore(),
  }: { at?: string; state?: unknown; store?: AppStore } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [{ pathname: at, state }] })
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { ...view, router, store }
}
