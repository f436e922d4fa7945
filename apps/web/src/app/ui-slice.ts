import { createSlice, type Dispatch, type PayloadAction } from '@reduxjs/toolkit'
import type { JobPost } from '@marketplace/contracts/api'
import { personCached, postCached, type ShownPerson } from '@/lib/entities-api'

type PostModalKind = 'postDetails' | 'requestPost' | 'reportPost'
type PersonModalKind = 'workerDetails' | 'requestPerson' | 'reportPerson'

/** A modal as a feature asks for it: with the post or person it is about. */
export type ModalRequest =
  | { kind: 'addPost' | 'profileRequired' }
  | { kind: PostModalKind; post: JobPost }
  | { kind: PersonModalKind; person: ShownPerson }

/** The modal as the slice keeps it: its subject by id, the subject itself in RTK Query. */
export type OpenModal =
  | { kind: 'addPost' | 'profileRequired' }
  | { kind: PostModalKind; postId: string }
  | { kind: PersonModalKind; personId: string }

/**
 * The one modal open at a time. Any feature opens one with
 * `modalOpened`; <ModalHost/> (app/modals) renders it, so features never import each
 * other's modals.
 */
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

/** Opens a modal: its post or person goes to the cache the modal reads, its id to the slice. */
export const modalOpened = (request: ModalRequest) => (dispatch: Dispatch) => {
  if ('post' in request) {
    dispatch(postCached(request.post))
    dispatch(uiSlice.actions.modalOpened({ kind: request.kind, postId: request.post._id }))
  } else if ('person' in request) {
    dispatch(personCached(request.person))
    dispatch(uiSlice.actions.modalOpened({ kind: request.kind, personId: request.person._id }))
  } else {
    dispatch(uiSlice.actions.modalOpened({ kind: request.kind }))
  }
}

export const { modalClosed } = uiSlice.actions
export const uiReducer = uiSlice.reducer
export const selectOpenModal = (state: { ui: UiState }) => state.ui.modal
