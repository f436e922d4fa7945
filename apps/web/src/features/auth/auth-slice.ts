import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { RootState } from '@/app/store'
import type { SessionUser } from '@/lib/types'

/**
 * The session (spec 1 §4): user and access token, in memory only. `restoring` is true while
 * the app tries a renewal at start ("Loading...").
 */
export interface AuthState {
  user: SessionUser | null
  accessToken: string | null
  restoring: boolean
}

const initialState: AuthState = { user: null, accessToken: null, restoring: false }

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /** Login or a renewal answered a user and a token. */
    credentialsReceived(state, action: PayloadAction<{ user: SessionUser; accessToken: string }>) {
      state.user = action.payload.user
      state.accessToken = action.payload.accessToken
      state.restoring = false
    },
    /** The signed-in user's own edits (names, phone, worker flag) reach the top bar at once. */
    userUpdated(state, action: PayloadAction<Partial<SessionUser>>) {
      if (state.user) state.user = { ...state.user, ...action.payload }
    },
    restoreStarted(state) {
      state.restoring = true
    },
    restoreFinished(state) {
      state.restoring = false
    },
    signedOut() {
      return initialState
    },
  },
})

export const { credentialsReceived, userUpdated, restoreStarted, restoreFinished, signedOut } =
  authSlice.actions
export const authReducer = authSlice.reducer

export const selectCurrentUser = (state: RootState) => state.auth.user
export const selectAccessToken = (state: RootState) => state.auth.accessToken
export const selectIsLoggedIn = (state: RootState) => !!state.auth.accessToken && !!state.auth.user
export const selectIsRestoring = (state: RootState) => state.auth.restoring
export const selectRoles = (state: RootState) => state.auth.user?.roles ?? []
