import type {
  AccountDeletion,
  AccountUpdateBody,
  ChangePasswordAnswer,
  HomePlaceBody,
  NotificationPreferencesView,
  PersonSelfView,
  SessionUser,
  WorkerProfileBody,
  WorkerStatusBody,
} from '@marketplace/contracts/api'
import type { ChangePasswordPayload } from '@marketplace/contracts/validation'
import { credentialsReceived, userUpdated } from '@/lib/auth-slice'
import { api } from '@/lib/api'

const profileTag = (id: string) => ({ type: 'Profile' as const, id })

/** What the top bar shows of the user, taken from a saved self view. */
const sessionFieldsOf = (profile: PersonSelfView): Partial<SessionUser> => ({
  firstName: profile.firstName,
  lastName: profile.lastName,
  phoneNumber: profile.phoneNumber,
  isWorker: profile.isWorker,
})

/**
 * The account side of the settings: services/people /api/users/*, auth's
 * change-password and notifications' preferences.
 */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/users/{id}: the self view when the id is the caller's. */
    getUser: build.query<PersonSelfView, string>({
      query: (id) => `/api/users/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [profileTag(id)],
    }),
    updateAccount: build.mutation<PersonSelfView, AccountUpdateBody & { id: string }>({
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
    // The contract leaves the body's fields untyped (the service answers a wrong one with the
    // product's sentence); the validation rules' payload is what the form sends.
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
    deleteAccount: build.mutation<AccountDeletion, string>({
      query: (id) => ({ url: `/api/users/${encodeURIComponent(id)}`, method: 'DELETE' }),
    }),
    saveWorkerProfile: build.mutation<PersonSelfView, WorkerProfileBody & { id: string }>({
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
          // A failed profile update is logged only; the modal shows the message.
        }
      },
      invalidatesTags: ['Person', 'Feed'],
    }),
    /** The place the feed's Within control starts from ('' clears it). */
    setHomePlace: build.mutation<PersonSelfView, HomePlaceBody & { id: string }>({
      query: ({ id, homePlace }) => ({
        url: `/api/users/${encodeURIComponent(id)}/home-place`,
        method: 'PUT',
        body: { homePlace },
      }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          dispatch(accountApi.util.upsertQueryData('getUser', id, data))
        } catch {
          // The form shows the server's message.
        }
      },
    }),
    setWorkerStatus: build.mutation<PersonSelfView, WorkerStatusBody & { id: string }>({
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
    getPreferences: build.query<NotificationPreferencesView, void>({
      query: () => '/api/notifications/preferences',
      providesTags: ['Preferences'],
    }),
    /**
     * Optimistic, with the previous values restored on failure. The screen sends
     * all five flags, so the body is the saved view itself.
     */
    updatePreferences: build.mutation<NotificationPreferencesView, NotificationPreferencesView>({
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
  useSetHomePlaceMutation,
  useGetPreferencesQuery,
  useUpdatePreferencesMutation,
} = accountApi
