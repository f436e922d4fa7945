// Test helpers of services that keep these read models (imported as @marketplace/read-models/testing).
export { createCatalogAnnouncer } from './catalog-announcer'
export { createBlockAnnouncer, type BlockChange } from './block-announcer'
