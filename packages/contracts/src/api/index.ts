// HTTP contracts: each service's request and response schemas (TypeBox), used by its routes
// (validation, serialization, the OpenAPI document) and by the web app (types).
export * from './common'
export * from './auth'
export * from './people'
export * from './jobs'
export * from './favorites'
export * from './reports'
export * from './notifications'
export * from './media'
export * from './conversations'
export * from './saved-searches'
