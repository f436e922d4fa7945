import type { ReactElement } from 'react'
import { createStore, type AppStore } from '@/app/store'
import type { ModalRequest } from '@/app/ui-slice'
import { selectCachedPerson, selectCachedPost, type ShownPerson } from '@/lib/entities-api'
import type { JobPost, SessionUser } from '@marketplace/contracts/api'
import { renderRoutes, signIn } from '@/test/helpers'

export const viewer: SessionUser = {
  _id: 'viewer1',
  firstName: 'Ava',
  lastName: 'Turner',
  email: 'ava@example.test',
  phoneNumber: '(123) 456-7890',
  isWorker: true,
  roles: ['2000'],
}

export const samplePost: JobPost = {
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

export const samplePerson: ShownPerson = {
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

/** Renders a modal in a memory router over a fresh store, signed in as `user` unless null. */
export function renderModal(
  ui: ReactElement,
  { user = viewer }: { user?: SessionUser | null } = {},
) {
  const store: AppStore = createStore()
  if (user) signIn(store, user)
  return renderRoutes(
    [
      { path: '/', element: ui },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { store },
  )
}

/**
 * The open modal with its subject, as the feature that opened it asked for it: the slice
 * keeps the subject's id and RTK Query the subject (undefined when it is not cached).
 */
export function openModalOf(store: AppStore): ModalRequest | null {
  const state = store.getState()
  const modal = state.ui.modal
  if (!modal) return null
  if ('postId' in modal) {
    return { kind: modal.kind, post: selectCachedPost(state, modal.postId)! }
  }
  if ('personId' in modal) {
    return { kind: modal.kind, person: selectCachedPerson(state, modal.personId)! }
  }
  return modal
}
