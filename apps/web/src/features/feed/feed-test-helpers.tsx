import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { createStore, type AppStore } from '@/app/store'
import { credentialsReceived } from '@/features/auth/auth-slice'
import type { Person, Post, SessionUser } from '@/lib/types'

export const me: SessionUser = {
  _id: 'u1',
  firstName: 'Ava',
  lastName: 'Turner',
  email: 'ava@example.test',
  phoneNumber: '(123) 456-7890',
  isWorker: true,
  roles: ['2000'],
}

export function signIn(store: AppStore, user: SessionUser = me) {
  store.dispatch(credentialsReceived({ user, accessToken: 'token' }))
}

export const makePost = (changes: Partial<Post> = {}): Post => ({
  _id: 'p1',
  jobID: 'j1',
  userID: 'u2',
  title: 'Help moving boxes',
  location: 'Boston MA',
  jobStartEnd: 'Saturday',
  salary: '$50',
  paymentType: ['Cash'],
  contact: null,
  infos: 'Two hours of lifting',
  displayLocation: true,
  displayContact: false,
  jobPicture: null,
  category: 'Moving',
  isOnline: true,
  expirationDate: null,
  authorizedUsers: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...changes,
})

export const makePerson = (changes: Partial<Person> = {}): Person => ({
  _id: 'u3',
  firstName: 'Noah',
  lastName: 'Lee',
  name: '',
  age: 30,
  isWorker: true,
  title: 'Handyman',
  skills: ['Painting', 'Plumbing'],
  availability: 'Weekends',
  paymentType: 'Cash',
  location: 'Austin TX',
  infos: '',
  contacts: [],
  profilePicture: null,
  isOnline: true,
  category: 'Handyman',
  ...changes,
})

export const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })

/**
 * Stubs `fetch`. RTK Query builds a `Request` from a page-relative path, which Node's
 * Request cannot resolve, so relative inputs are resolved against jsdom's location.
 */
export function stubFetch(handler: (url: URL, request: Request) => Response | Promise<Response>) {
  const NodeRequest = globalThis.Request
  class PageRequest extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
    }
  }
  globalThis.Request = PageRequest as typeof Request
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init)
    return handler(new URL(request.url), request)
  })
  return {
    spy,
    restore() {
      spy.mockRestore()
      globalThis.Request = NodeRequest
    },
  }
}

/** Renders `element` at `at`, with a "/" route and a fallback that names the path. */
export function renderWithStore(
  element: ReactNode,
  { store = createStore(), at = '/' }: { store?: AppStore; at?: string } = {},
) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <>{element}</> },
      { path: '*', element: <>{element}</> },
    ],
    { initialEntries: [at] },
  )
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { ...view, store, router }
}
