import { api } from '@/lib/api'

/** Ending the server's side of the session: the shell's Logout and account deletion both do. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    // A mutation, not a query: nothing is cached and it runs only when asked. 204, no body.
    logout: build.mutation<null, void>({
      query: () => ({ url: '/logout', method: 'GET' }),
    }),
  }),
})

export const { useLogoutMutation } = sessionApi
