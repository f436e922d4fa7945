import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { createStore, type AppStore } from '@/app/store'
import { credentialsReceived } from '@/features/auth/auth-slice'
import type { Person, Post, SessionUser } from '@/lib/types'

export const viewer: SessionUser = {
  _id: 'viewer1',
  firstName: 'Ava',
  lastName: 'Turner',
  email: 'ava@example.test',
  phoneNumber: '(123) 456-7890',
  isWorker: true,
  roles: ['2000'],
}

export const samplePost: Post = {
  _id: 'post1',
  jobID: 'job-1',
  userID: 'owner1',
  title: 'Paint my fence',
  location: null,
  jobStartEnd: 'Saturday',
  salary: '$100',
  paymentType: ['Cash'],
  contact: null,
  infos: 'Two coats.',
  displayLocation: false,
  displayContact: false,
  jobPicture: null,
  category: 'Home',
  isOnline: true,
  expirationDate: null,
  authorizedUsers: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}

export const samplePerson: Person = {
  _id: 'worker1',
  firstName: 'Wes',
  lastName: 'Worker',
  name: 'Wes Worker',
  age: 31,
  isWorker: true,
  title: 'Painter',
  skills: ['Painting', 'Drywall'],
  availability: 'Weekends',
  paymentType: 'Cash',
  location: 'Austin TX',
  infos: '',
  contacts: [{ value: 'wes@example.test', visibility: 'public' }],
  profilePicture: null,
  isOnline: true,
  category: null,
}

export const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })

/**
 * Stubs `fetch`: RTK Query builds a Request from a page-relative path, which Node's Request
 * cannot resolve alone, so it is resolved against jsdom's location here.
 */
export function stubFetch(
  handler: (path: string, request: Request) => Response | Promise<Response>,
) {
  const NodeRequest = globalThis.Request
  class PageRequest extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
    }
  }
  globalThis.Request = PageRequest as typeof Request
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init)
    return handler(new URL(request.url).pathname, request)
  })
  return {
    spy,
    restore() {
      spy.mockRestore()
      globalThis.Request = NodeRequest
    },
  }
}

/** Renders a modal in a memory router over a fresh store, signed in as `user` unless null. */
export function renderModal(
  ui: ReactElement,
  { user = viewer }: { user?: SessionUser | null } = {},
) {
  const store: AppStore = createStore()
  if (user) store.dispatch(credentialsReceived({ user, accessToken: 'token' }))
  const router = createMemoryRouter(
    [
      { path: '/', element: ui },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/'] },
  )
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { ...view, store, router }
}
