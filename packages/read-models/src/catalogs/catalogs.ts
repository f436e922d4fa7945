import type { Db } from 'mongodb'
import type { ConsumerDefinition, IndexDefinition } from '@marketplace/service-kit'
import { createPeopleCatalog } from './people-catalog'
import { createPostCatalog, postCatalogIndexes } from './post-catalog'

export const POST_CATALOG_COLLECTION = 'post_catalog'
export const PEOPLE_CATALOG_COLLECTION = 'people_catalog'
export const CATALOG_INDEXES: IndexDefinition[] = postCatalogIndexes(POST_CATALOG_COLLECTION)

/**
 * Both read models, as a service that shows posts and people it does not own keeps them,
 * with the consumer groups that feed them (`<prefix>-posts`, `<prefix>-people`). The hooks
 * drop what the service holds about a deleted post or a purged user; the user's posts leave
 * the post catalog here.
 */
export function createCatalogs(
  db: Db,
  hooks: {
    postDeleted(postId: string): Promise<void>
    userDeleted(userId: string): Promise<void>
  },
) {
  const posts = createPostCatalog(db, {
    collection: POST_CATALOG_COLLECTION,
    onDeleted: (event) => hooks.postDeleted(event.data.postId),
  })
  const people = createPeopleCatalog(db, {
    collection: PEOPLE_CATALOG_COLLECTION,
    onDeleted: async (event) => {
      await hooks.userDeleted(event.data.userId)
      await posts.deleteOfOwner(event.data.userId)
    },
  })
  return {
    posts,
    people,
    consumers: (groupPrefix: string): ConsumerDefinition[] => [
      { groupId: `${groupPrefix}-posts`, handlers: posts.handlers },
      { groupId: `${groupPrefix}-people`, handlers: people.handlers },
    ],
  }
}
