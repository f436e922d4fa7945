import type {
  SavedSearch,
  SavedSearchChange,
  SavedSearchCreate,
  SavedSearchList,
} from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/** Saved searches (services/notifications /api/notifications/saved-searches, docs/saved-searches.md). */
export const savedSearchesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSavedSearches: build.query<SavedSearchList, void>({
      query: () => '/api/notifications/saved-searches',
      providesTags: ['SavedSearches'],
    }),
    saveSearch: build.mutation<SavedSearch, SavedSearchCreate>({
      query: (body) => ({ url: '/api/notifications/saved-searches', method: 'POST', body }),
      invalidatesTags: ['SavedSearches'],
    }),
    changeSavedSearch: build.mutation<SavedSearch, { id: string; changes: SavedSearchChange }>({
      query: ({ id, changes }) => ({
        url: `/api/notifications/saved-searches/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: changes,
      }),
      invalidatesTags: ['SavedSearches'],
    }),
    deleteSavedSearch: build.mutation<{ deleted: boolean }, string>({
      query: (id) => ({
        url: `/api/notifications/saved-searches/${encodeURIComponent(id)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['SavedSearches'],
    }),
    /** The e-mail's unsubscribe link: no session, the signed token is the proof. */
    unsubscribeSavedSearch: build.mutation<{ name: string }, string>({
      query: (token) => ({
        url: '/api/notifications/saved-searches/unsubscribe',
        method: 'POST',
        body: { token },
      }),
      invalidatesTags: ['SavedSearches'],
    }),
  }),
})

export const {
  useGetSavedSearchesQuery,
  useSaveSearchMutation,
  useChangeSavedSearchMutation,
  useDeleteSavedSearchMutation,
  useUnsubscribeSavedSearchMutation,
} = savedSearchesApi
