import { api } from '@/lib/api'
import type { Person, Post } from '@/lib/types'

/** spec 2 §3 "Favorite entry": the saved post or person as strangers see it. */
export interface FavoritePostEntry {
  favoriteID: Post
  createdAt: string
  updatedAt: string
}

export interface FavoritePersonEntry {
  favoriteID: Person
  /** The person's user id: the home feed shows the saved state with it. */
  personID: string
  createdAt: string
  updatedAt: string
}

/** services/favorites (docs/favorites-and-reports.md); every route is self only. */
export const favoritesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFavoritePosts: build.query<FavoritePostEntry[], string>({
      query: (userId) => `/api/favorites/posts/${encodeURIComponent(userId)}`,
      // spec 2 §3: entries without their object are ignored.
      transformResponse: (body: FavoritePostEntry[]) => body.filter((entry) => entry.favoriteID),
      providesTags: ['FavoritePosts'],
    }),
    addFavoritePost: build.mutation<FavoritePostEntry, { userId: string; postId: string }>({
      query: (body) => ({ url: '/api/favorites/posts', method: 'POST', body }),
      invalidatesTags: ['FavoritePosts', 'Stats'],
    }),
    removeFavoritePost: build.mutation<void, { userId: string; postId: string }>({
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
    addFavoritePerson: build.mutation<FavoritePersonEntry, { userID: string; personID: string }>({
      query: (body) => ({ url: '/api/favorites/people', method: 'POST', body }),
      invalidatesTags: ['FavoritePeople', 'Stats'],
    }),
    removeFavoritePerson: build.mutation<void, { userId: string; personId: string }>({
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
