import type { OutboxFields } from '@marketplace/service-kit'

export const FAVORITES_COLLECTION = 'favorites'
/** favorite.removed waits here (the deleted document cannot carry it): service-kit tombstones. */
export const FAVORITE_TOMBSTONES_COLLECTION = 'favorite_tombstones'

export type FavoriteKind = 'post' | 'person'

/**
 * One saved post or person. The id is made of the user, the kind and the target, so saving
 * twice names the same document: the database keeps one, without a check-then-insert race.
 */
export interface FavoriteDocument extends OutboxFields {
  _id: string
  userId: string
  kind: FavoriteKind
  targetId: string
  /** The post's owner, or the person: user.deleted of that user drops the entry. */
  targetOwnerId: string
  createdAt: Date
  updatedAt: Date
}

export const favoriteId = (userId: string, kind: FavoriteKind, targetId: string) =>
  `${userId}:${kind}:${targetId}`
