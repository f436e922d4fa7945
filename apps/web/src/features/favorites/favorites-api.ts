import type {
  FavoritePersonBody,
  FavoritePersonEntry,
  FavoritePersonParams,
  FavoritePostBody,
  FavoritePostEntry,
  FavoritePostParams,
} from '@marketplace/contracts/api'
import { api } from '@/lib/api'

/** services/favorites (docs/favorites-and-reports.md); every route is self only. */
export const favoritesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFavoritePosts: build.query<FavoritePostEntry[], string>({
      query: (userId) => `/api/favorites/posts/${encodeURIComponent(userId)}`,
      // Entries without their object are ignored.
      transformResponse: (body: FavoritePostEntry[]) => body.filter((entry) => entry.favoriteID),
      providesTags: ['FavoritePosts'],
    }),
    addFavoritePost: build.mutation<FavoritePostEntry, Required<FavoritePostBody>>({
      query: (body) => ({ url: '/api/favorites/posts', method: 'POST', body }),
      invalidatesTags: ['FavoritePosts', 'Stats'],
    }),
    removeFavoritePost: build.mutation<void, FavoritePostParams>({
      query: ({ userId, postId }) => ({
        url: `/api/favorites/posts/${encodeURIComponent(userId)}/${encodeURIComponent(postId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['FavoritePosts', 'Stats'],
    }),
    getFavoritePeople: build.query<FavoritePersonEntry[], string>({
      query: (userId) => `/api/favorites/people/${encodeURIComponent(userId)}`,
      transformResponse: (body: FavoritePersonEntry[]) => body.filter((entry) => entry.favoriteID),
      providesTags: ['FavoritePeople'],
    }),
    addFavoritePerson: build.mutation<FavoritePersonEntry, Required<FavoritePersonBody>>({
      query: (body) => ({ url: '/api/favorites/people', method: 'POST', body }),
      invalidatesTags: ['FavoritePeople', 'Stats'],
    }),
    removeFavoritePerson: build.mutation<void, FavoritePersonParams>({
      query: ({ userId, personId }) => ({
        url: `/api/favorites/people/${encodeURIComponent(userId)}/${encodeURIComponent(personId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['FavoritePeople', 'Stats'],
    }),
  }),
})

export const {
  useGetFavoritePostsQuery,
  useAddFavoritePostMutation,
  useRemoveFavoritePostMutation,
  useGetFavoritePeopleQuery,
  useAddFavoritePersonMutation,
  useRemoveFavoritePersonMutation,
} = favoritesApi
