// The local storage key "persist" marks that a session may be renewed
// when the app starts (the "Keep me signed in" choice). The access token itself is never
// stored: it lives in the Redux store, in memory only.
const PERSIST_KEY = 'persist'

export function readPersistFlag(): boolean {
  try {
    return localStorage.getItem(PERSIST_KEY) === 'true'
  } catch {
    return false
  }
}

export function writePersistFlag(persist: boolean): void {
  try {
    if (persist) localStorage.setItem(PERSIST_KEY, 'true')
    else localStorage.removeItem(PERSIST_KEY)
  } catch {
    // Storage refused (private mode): the session simply does not survive a reload.
  }
}

/** Every stored trace of the session goes. */
export function clearStoredSession(): void {
  try {
    localStorage.removeItem(PERSIST_KEY)
    for (const key of ['auth', 'user', 'token', 'accessToken']) localStorage.removeItem(key)
    sessionStorage.clear()
  } catch {
    // nothing stored, nothing to clear
  }
}
