import { combineReducers, configureStore } from '@reduxjs/toolkit'
import { setupListeners } from '@reduxjs/toolkit/query'
import { authReducer } from '@/lib/auth-slice'
import { feedReducer } from '@/features/feed/feed-slice'
import { api } from '@/lib/api'
import { uiReducer } from '@/app/ui-slice'

const rootReducer = combineReducers({
  auth: authReducer,
  feed: feedReducer,
  ui: uiReducer,
  [api.reducerPath]: api.reducer,
})

export type RootState = ReturnType<typeof rootReducer>

export function createStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  })
  setupListeners(store.dispatch)
  return store
}

export type AppStore = ReturnType<typeof createStore>
export type AppDispatch = AppStore['dispatch']
