import type { ReactNode } from 'react'
import { createStore, type AppStore } from '@/app/store'
import type { FeedItem } from '@/features/feed/feed-slice'
import { selectCachedPerson, selectCachedPost, type ShownPerson } from '@/lib/entities-api'
import type { JobPost, SessionUser } from '@marketplace/contracts/api'
import { renderRoutes, signIn as signInAs, stubFetch as stubFetchPaths } from '@/test/helpers'

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
  signInAs(store, user)
}

export const makePost = (changes: Partial<JobPost> = {}): JobPost => ({
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

export const makePerson = (changes: Partial<ShownPerson> = {}): ShownPerson => ({
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

/** Stubs `fetch`, handing the handler the whole URL (the feed reads its query). */
export function stubFetch(handler: (url: URL, request: Request) => Response | Promise<Response>) {
  return stubFetchPaths((_path, request) => handler(new URL(request.url), request))
}

/** Renders `element` at `at`, with a "/" route and a fallback that names the path. */
export function renderWithStore(
  element: ReactNode,
  { store = createStore(), at = '/' }: { store?: AppStore; at?: string } = {},
) {
  return renderRoutes(
    [
      { path: '/', element: <>{element}</> },
      { path: '*', element: <>{element}</> },
    ],
    { at, store },
  )
}

/** The feed's selected item itself: the slice keeps its id, RTK Query the item. */
export function selectedItemOf(store: AppStore): FeedItem | null {
  const state = store.getState()
  const selected = state.feed.selected
  if (!selected) return null
  return selected.type === 'job'
    ? { type: 'job', item: selectCachedPost(state, selected.id)! }
    : { type: 'worker', item: selectCachedPerson(state, selected.id)! }
}
