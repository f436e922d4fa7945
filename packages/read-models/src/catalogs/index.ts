export {
  createPostCatalog,
  postCatalogIndexes,
  toPublicPostView,
  isVisiblePost,
  type CatalogPost,
  type PostCatalog,
  type PublicPost,
  type PublicPostView,
} from './post-catalog'
export {
  createPeopleCatalog,
  toPublicPersonView,
  isVisiblePerson,
  isDeletionPending,
  fullNameOf,
  type CatalogPerson,
  type CatalogWorker,
  type PeopleCatalog,
  type PublicPersonView,
} from './people-catalog'
export {
  createCatalogs,
  CATALOG_INDEXES,
  POST_CATALOG_COLLECTION,
  PEOPLE_CATALOG_COLLECTION,
} from './catalogs'
