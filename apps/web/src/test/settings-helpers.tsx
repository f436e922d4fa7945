import type { ReactElement } from 'react'
import { createStore } from '@/app/store'
import type { PersonSelfView, SessionUser } from '@marketplace/contracts/api'
import { renderRoutes, sampleUser, signIn } from '@/test/helpers'

export const selfProfile: PersonSelfView = {
  _id: sampleUser._id,
  firstName: 'Ava',
  lastName: 'Turner',
  name: 'Ava Turner',
  age: 31,
  isWorker: false,
  title: '',
  skills: [],
  availability: '',
  paymentType: '',
  location: '',
  infos: '',
  contacts: [],
  profilePicture: null,
  isOnline: false,
  category: null,
  rating: { average: null, count: 0 },
  email: sampleUser.email,
  phoneNumber: sampleUser.phoneNumber,
  dateOfBirth: '1995-01-01',
  interest: null,
  emailPreferences: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  deletion: null,
}

/** Renders one settings page at its path (and a home page), signed in unless user is null. */
export function renderPage(
  page: ReactElement,
  { path = '/page', user = sampleUser }: { path?: string; user?: SessionUser | null } = {},
) {
  const store = createStore()
  if (user) signIn(store, user)
  return renderRoutes(
    [
      { path, element: page },
      { path: '/', element: <p>Home page</p> },
    ],
    { at: path, store },
  )
}

/** The JSON body a stubbed request carried. */
export async function bodyOf(request: Request): Promise<unknown> {
  return JSON.parse(await request.clone().text())
}
