import { useState } from 'react'

/**
 * A favorites list's state, and removing a favorite after a confirmation: `ask` opens it for
 * an entry, `confirm` removes it for the signed-in user and closes. A failed
 * favorite removal is silent.
 */
export function useFavoritesList<Entry>(
  userId: string | undefined,
  query: { isLoading: boolean; isError: boolean },
  entries: readonly Entry[],
  removal: { remove: (userId: string, entry: Entry) => Promise<unknown>; busy: boolean },
) {
  const { remove, busy } = removal
  const [removing, setRemoving] = useState<Entry | null>(null)

  const confirm = async (entry: Entry) => {
    if (!userId) return
    try {
      await remove(userId, entry)
    } catch {
      // A failed favorite removal is silent.
    }
    setRemoving(null)
  }

  return {
    signedIn: !!userId,
    isLoading: query.isLoading,
    isError: query.isError,
    isEmpty: entries.length === 0,
    removing,
    busy,
    ask: setRemoving,
    cancel: () => setRemoving(null),
    confirm,
  }
}

export type FavoritesList<Entry> = ReturnType<typeof useFavoritesList<Entry>>
