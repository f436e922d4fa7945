import type { ReactNode } from 'react'
import { ConfirmModal } from '@/components/ui/Modal'
import type { FavoritesList } from '@/features/favorites/use-favorites-list'

/** Each page's own texts: its list's states and its removal question. */
export interface FavoritesTexts<Entry> {
  signedOut: string
  loading: string
  failed: string
  empty: ReactNode
  removeQuestion: (entry: Entry) => string
}

/**
 * A favorites page's content: its signed-out, loading, failed and empty states, else its
 * list; and the confirmation of a removal while one is asked for ("Remove from Favorites",
 * the same on both pages, with each page's own question).
 */
export function FavoritesContent<Entry>({
  list,
  texts,
  renderList,
}: {
  list: FavoritesList<Entry>
  texts: FavoritesTexts<Entry>
  renderList: () => ReactNode
}) {
  const entry = list.removing
  return (
    <>
      <FavoritesState list={list} texts={texts}>
        {renderList}
      </FavoritesState>
      {entry !== null && (
        <ConfirmModal
          title="Remove from Favorites"
          message={texts.removeQuestion(entry)}
          confirmLabel="Remove"
          busy={list.busy}
          onCancel={list.cancel}
          onConfirm={() => list.confirm(entry)}
        />
      )}
    </>
  )
}

function FavoritesState<Entry>({
  list,
  texts,
  children,
}: {
  list: FavoritesList<Entry>
  texts: FavoritesTexts<Entry>
  children: () => ReactNode
}) {
  if (!list.signedIn) {
    return (
      <p className="error-state" role="alert">
        {texts.signedOut}
      </p>
    )
  }
  if (list.isLoading) {
    return (
      <p className="page-loading" role="status">
        {texts.loading}
      </p>
    )
  }
  if (list.isError) {
    return (
      <p className="error-state" role="alert">
        {texts.failed}
      </p>
    )
  }
  if (list.isEmpty) return <p className="empty-state">{texts.empty}</p>
  return children()
}
