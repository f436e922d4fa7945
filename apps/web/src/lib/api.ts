import { createApi } from '@reduxjs/toolkit/query/react'
import { baseQueryWithRenewal } from '@/lib/base-query'

/**
 * The app's one createApi (STYLE.md): every feature adds its endpoints with
 * `api.injectEndpoints` in its own features/<feature>/*-api.ts. Tags name what a write
 * makes stale.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithRenewal,
  tagTypes: [
    'Session',
    'Post',
    'MyPosts',
    'Feed',
    'Categories',
    'Person',
    'Profile',
    'PostRequests',
    'PeopleRequests',
    'FavoritePosts',
    'FavoritePeople',
    'Notifications',
    'Preferences',
    'Reports',
    'Stats',
    'Ratings',
    'Conversations',
    'Blocks',
    'SavedSearches',
  ],
  endpoints: () => ({}),
})

/** The message a person reads from a failed call: the server's, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data
    if (data && typeof data === 'object' && 'message' in data) {
      const message = (data as { message?: unknown }).message
      if (typeof message === 'string' && message) return message
    }
  }
  return fallback
}

/** The HTTP status of a failed call, or null for a network failure. */
export function errorStatus(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status?: unknown }).status
    return typeof status === 'number' ? status : null
  }
  return null
}
