// Shapes of what the services answer (see their *-view.ts files), as the app reads them.

export type RoleCode = '2000' | '2001' | '2002'

/** The signed-in user (spec 1 §3 "User", spec 2 §3 "Auth state"). */
export interface SessionUser {
  _id: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  isWorker: boolean
  roles: string[]
}

/** A post as services/jobs answers it (post-view.ts); location/contact null when hidden. */
export interface Post {
  _id: string
  jobID: string
  userID: string
  title: string
  location: string | null
  jobStartEnd: string
  salary: string
  paymentType: string[]
  contact: string | null
  infos: string
  displayLocation: boolean
  displayContact: boolean
  jobPicture: string | null
  category: string
  isOnline: boolean
  expirationDate: string | null
  authorizedUsers: string[]
  /** Sent to the owner only: a moderator took the post down; it cannot go online again. */
  takenDown?: true
  createdAt: string
  updatedAt: string
}

export interface WorkerContact {
  value: string
  visibility: 'public' | 'hidden'
}

/** A person as services/people answers it (profile-views.ts toPersonView). */
export interface Person {
  _id: string
  firstName: string
  lastName: string
  name: string
  age: number | null
  isWorker: boolean
  title: string
  skills: string[]
  availability: string
  paymentType: string
  location: string
  infos: string
  contacts: WorkerContact[]
  profilePicture: string | null
  isOnline: boolean
  category: string | null
  /** Average of the ratings owners gave (added with "Rate your workers"); absent before. */
  rating?: { average: number | null; count: number }
}

/** GET /api/users/{own id}: the person plus the account fields. */
export interface SelfProfile extends Person {
  email: string
  phoneNumber: string
  dateOfBirth: string
  interest: string | null
  emailPreferences: boolean
  createdAt: string
  deletion: { purgeAfter: string } | null
}

export interface Pagination {
  page: number
  totalPages: number
  total: number
}

/** The error shape every service answers: { message, code }. */
export interface ApiErrorBody {
  message?: string
  code?: string
}
