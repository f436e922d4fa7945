import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import type { RootState } from '@/app/store'
import type { Person, Post } from '@/lib/types'

/**
 * The one modal open at a time (spec 1 §2 "Modals"). Any feature opens one by dispatching
 * `modalOpened`; <ModalHost/> (features/modals) renders it. Keeps features from importing
 * each other's components.
 */
export type OpenModal =
  | { kind: 'addPost' }
  | { kind: 'postDetails'; post: Post }
  | { kind: 'workerDetails'; person: Person }
  | { kind: 'requestPost'; post: Post }
  | { kind: 'requestPerson'; person: Person }
  | { kind: 'reportPost'; post: Post }
  | { kind: 'reportPerson'; person: Person }
  | { kind: 'profileRequired' }

export interface UiState {
  modal: OpenModal | null
}

const initialState: UiState = { modal: null }

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    modalOpened(state, action: PayloadAction<OpenModal>) {
      state.modal = action.payload
    },
    modalClosed(state) {
      state.modal = null
    },
  },
})

export const { modalOpened, modalClosed } = uiSlice.actions
export const uiReducer = uiSlice.reducer
export const selectOpenModal = (state: RootState) => state.ui.modal
