import type { NotificationPreferences } from '@marketplace/contracts/marketplace'
import type {
  AccountUpdatePayload,
  ChangePasswordPayload,
  WorkerProfilePayload,
} from '@marketplace/contracts/validation'
import { credentialsReceived, userUpdated } from '@/lib/auth-slice'
import { api } from '@/lib/api'
import type { SelfProfile, SessionUser } from '@/lib/types'

/** POST /api/auth/change-password: every session ends, the caller gets a fresh one. */
export interface ChangePasswordAnswer {
  message: string
  accessToken: string
  user: SessionUser
  roles: string[]
}

export interface DeleteAccountAnswer {
  message: string
  purgeAfter: string | null
}

const profileTag = (id: string) => ({ type: 'Profile' as const, id })

/** What the top bar shows of the user, taken from a saved self view. */
const sessionFieldsOf = (profile: SelfProfile): Partial<SessionUser> => ({
  firstName: profile.firstName,
  lastName: profile.lastName,
  phoneNumber: profile.phoneNumber,
  isWorker: profile.isWorker,
})

/**
 * The account side of the settings (spec 2 §7): services/people /api/users/*, auth's
 * change-password and notifications' preferences.
 */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/users/{id}: the self view (SelfProfile) when the id is the caller's. */
    getUser: build.query<SelfProfile, string>({
      query: (id) => `/api/users/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [profileTag(id)],
    }),
    updateAccount: build.mutation<SelfProfile, AccountUpdatePayload & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/users/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          dispatch(userUpdated(sessionFieldsOf(data)))
        } catch {
          // The page shows the server's message.
        }
      },
      invalidatesTags: (_result, _error, { id }) => [profileTag(id), 'Person'],
    }),
    changePassword: build.mutation<ChangePasswordAnswer, ChangePasswordPayload>({
      query: (body) => ({ url: '/api/auth/change-password', method: 'POST', body }),
      // The old access token was revoked with every session: keep the fresh one.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          dispatch(
            credentialsReceived({
              user: { ...data.user, roles: data.roles ?? data.user.roles },
              accessToken: data.accessToken,
            }),
          )
        } catch {
          // The page shows the server's message.
        }
      },
    }),
    deleteAccount: build.mutation<DeleteAccountAnswer, string>({
      query: (id) => ({ url: `/api/users/${encodeURIComponent(id)}`, method: 'DELETE' }),
    }),
    saveWorkerProfile: build.mutation<SelfProfile, WorkerProfilePayload & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/users/${encodeURIComponent(id)}/worker-profile`,
        method: 'PUT',
        body,
      }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          dispatch(accountApi.util.upsertQueryData('getUser', id, data))
          dispatch(userUpdated(sessionFieldsOf(data)))
        } catch {
          // spec 2 §8: a failed profile update is logged only; the modal shows the message.
        }
      },
      invalidatesTags: ['Person', 'Feed'],
    }),
    setWorkerStatus: build.mutation<SelfProfile, { id: string; isOnline: boolean }>({
      query: ({ id, isOnline }) => ({
        url: `/api/users/${encodeURIComponent(id)}/worker-status`,
        method: 'PATCH',
        body: { isOnline },
      }),
      // Optimistic: the switch moves at once and moves back if the server refuses.
      async onQueryStarted({ id, isOnline }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          accountApi.util.updateQueryData('getUser', id, (draft) => {
            draft.isOnline = isOnline
          }),
        )
        try {
          const { data } = await queryFulfilled
          dispatch(accountApi.util.upsertQueryData('getUser', id, data))
        } catch {
          patch.undo()
        }
      },
      invalidatesTags: ['Person', 'Feed'],
    }),
    getPreferences: build.query<NotificationPreferences, void>({
      query: () => '/api/notifications/preferences',
      providesTags: ['Preferences'],
    }),
    /** Optimistic, with the previous values restored on failure (spec 2 §4). */
    updatePreferences: build.mutation<NotificationPreferences, NotificationPreferences>({
      query: (body) => ({ url: '/api/notifications/preferences', method: 'PUT', body }),
      async onQueryStarted(next, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          accountApi.util.updateQueryData('getPreferences', undefined, () => next),
        )
        try {
          const { data } = await queryFulfilled
          dispatch(accountApi.util.upsertQueryData('getPreferences', undefined, data))
        } catch {
          patch.undo()
        }
      },
    }),
  }),
})

export const {
  useGetUserQuery,
  useUpdateAccountMutation,
  useChangePasswordMutation,
  useDeleteAccountMutation,
  useSaveWorkerProfileMutation,
  useSetWorkerStatusMutation,
  useGetPreferencesQuery,
  useUpdatePreferencesMutation,
} = accountApi
