import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { SessionUser } from '@marketplace/contracts/api'

/**
 * Why a session ended without the user signing out: its access token expired
 * and it could not be renewed (no "Keep me signed in"), or a renewal was refused.
 */
export type SessionEndReason = 'expired' | 'refused'

/**
 * The session: user and access token, in memory only. `restoring` is true while
 * the app tries a renewal at start ("Loading..."). Every feature reads it and the base query
 * renews it, so it lives with them in the shared layer. The signed-in user is the session's
 * identity as login answered it, not a cached person: profiles stay in RTK Query. `ended` says
 * why the last session ended by itself, for /login to tell, until the next login.
 */
export interface AuthState {
  user: SessionUser | null
  accessToken: string | null
  restoring: boolean
  ended: SessionEndReason | null
}

const initialState: AuthState = { user: null, accessToken: null, restoring: false, ended: null }

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /** Login or a renewal answered a user and a token. */
    credentialsReceived(state, action: PayloadAction<{ user: SessionUser; accessToken: string }>) {
      state.user = action.payload.user
      state.accessToken = action.payload.accessToken
      state.restoring = false
      state.ended = null
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
    /** Signed out, or (with a reason) the session ended by itself. */
    signedOut(_state, action: PayloadAction<SessionEndReason | undefined>) {
      return { ...initialState, ended: action.payload ?? null }
    },
  },
})

export const { credentialsReceived, userUpdated, restoreStarted, restoreFinished, signedOut } =
  authSlice.actions
export const authReducer = authSlice.reducer

/** The state this slice owns: selectors take only that, so the slice never imports the store. */
export interface WithAuth {
  auth: AuthState
}

export const selectCurrentUser = (state: WithAuth) => state.auth.user
export const selectAccessToken = (state: WithAuth) => state.auth.accessToken
export const selectIsLoggedIn = (state: WithAuth) => !!state.auth.accessToken && !!state.auth.user
export const selectIsRestoring = (state: WithAuth) => state.auth.restoring
export const selectSessionEndReason = (state: WithAuth) => state.auth.ended
export const selectRoles = (state: WithAuth) => state.auth.user?.roles ?? []
